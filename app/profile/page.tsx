import type { Metadata } from "next";
import { Forbidden } from "@/components/forbidden";
import { NotificationPreferenceForm } from "@/components/profile/notification-preference-form";
import { SlackLink } from "@/components/profile/slack-link";
import { Alert } from "@/components/ui/alert";
import { can, ROLE_LABELS } from "@/lib/auth/roles";
import { pageAccess } from "@/lib/auth/page-access";
import { emailEnabled } from "@/lib/notifications/mail-config";
import { emailModeOf } from "@/lib/notifications/preferences";
import { slackLinkOf } from "@/lib/slack/links";

export const metadata: Metadata = { title: "Profile · Agent approvals" };
export const dynamic = "force-dynamic";

export default async function ProfilePage() {
  const access = await pageAccess("read", "/profile");
  if (!access.allowed) return <Forbidden message={access.message} />;
  const { actor } = access;
  const decides = can(actor.role, "decide");
  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Profile</h1>
        <p className="mt-1 text-sm text-neutral-600">
          {actor.name} · {actor.email} · {actor.role ? ROLE_LABELS[actor.role] : "No role"}
        </p>
      </div>
      <section aria-labelledby="email-notifications" className="flex flex-col gap-4 rounded-lg border border-neutral-200 bg-white p-5">
        <h2 id="email-notifications" className="text-base font-semibold">
          Email notifications
        </h2>
        {!emailEnabled() ? (
          <Alert variant="warning" title="Email is off on this console">
            No email is sent until an operator sets SMTP_URL and MAIL_FROM. Your choice is kept for then.
          </Alert>
        ) : null}
        {decides ? (
          <NotificationPreferenceForm current={await emailModeOf(actor.id)} />
        ) : (
          <p className="text-sm text-neutral-600">
            Notifications are for reviewers: they tell of calls waiting for a decision, and your role cannot decide. Nothing is emailed to
            you.
          </p>
        )}
      </section>
      {decides ? (
        <section aria-labelledby="slack" className="flex flex-col gap-4 rounded-lg border border-neutral-200 bg-white p-5">
          <h2 id="slack" className="text-base font-semibold">
            Slack
          </h2>
          <SlackLink linkedAs={(await slackLinkOf(actor.id))?.slackUserId ?? null} />
        </section>
      ) : null}
    </div>
  );
}
