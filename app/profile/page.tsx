import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Forbidden } from "@/components/forbidden";
import { LanguageForm } from "@/components/profile/language-form";
import { NotificationPreferenceForm } from "@/components/profile/notification-preference-form";
import { SlackLink } from "@/components/profile/slack-link";
import { CreateTokenForm } from "@/components/tokens/create-token-form";
import { TokensTable } from "@/components/tokens/tokens-table";
import { Alert } from "@/components/ui/alert";
import { can } from "@/lib/auth/roles";
import { pageAccess } from "@/lib/auth/page-access";
import { listTokens } from "@/lib/auth/tokens";
import { requestLanguage } from "@/lib/i18n/request-language";
import { timeZones } from "@/lib/i18n/time-zones";
import { emailEnabled } from "@/lib/notifications/mail-config";
import { emailModeOf } from "@/lib/notifications/preferences";
import { slackLinkOf } from "@/lib/slack/links";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations();
  return { title: t("app.pageTitle", { page: t("profile.title") }) };
}
export const dynamic = "force-dynamic";

export default async function ProfilePage() {
  const access = await pageAccess("read", "/profile");
  if (!access.allowed) return <Forbidden role={access.actor.role} />;
  const { actor } = access;
  const decides = can(actor.role, "decide");
  const t = await getTranslations();
  const language = await requestLanguage();
  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("profile.title")}</h1>
        <p className="mt-1 text-sm text-neutral-600">
          {actor.name} · {actor.email} · {t(`roles.${actor.role ?? "none"}`)}
        </p>
      </div>
      <section aria-labelledby="language" className="flex flex-col gap-4 rounded-lg border border-neutral-200 bg-white p-5">
        <h2 id="language" className="text-base font-semibold">
          {t("profile.languageSection")}
        </h2>
        <LanguageForm
          locale={language.chosen.locale}
          timeZone={language.chosen.timeZone}
          browserLocale={language.browser.locale}
          browserZone={language.browser.timeZone}
          zones={timeZones()}
        />
      </section>
      <section aria-labelledby="email-notifications" className="flex flex-col gap-4 rounded-lg border border-neutral-200 bg-white p-5">
        <h2 id="email-notifications" className="text-base font-semibold">
          {t("profile.emailSection")}
        </h2>
        {!emailEnabled() ? (
          <Alert variant="warning" title={t("profile.emailOffTitle")}>
            {t("profile.emailOffBody")}
          </Alert>
        ) : null}
        {decides ? (
          <NotificationPreferenceForm current={await emailModeOf(actor.id)} />
        ) : (
          <p className="text-sm text-neutral-600">{t("profile.notNotified")}</p>
        )}
      </section>
      {decides ? (
        <section aria-labelledby="slack" className="flex flex-col gap-4 rounded-lg border border-neutral-200 bg-white p-5">
          <h2 id="slack" className="text-base font-semibold">
            {t("profile.slackSection")}
          </h2>
          <SlackLink linkedAs={(await slackLinkOf(actor.id))?.slackUserId ?? null} />
        </section>
      ) : null}
      <section aria-labelledby="api-tokens" className="flex flex-col gap-4 rounded-lg border border-neutral-200 bg-white p-5">
        <h2 id="api-tokens" className="text-base font-semibold">
          {t("tokens.profileTitle")}
        </h2>
        <p className="text-sm text-neutral-600">{t("tokens.profileIntro")}</p>
        <TokensTable tokens={await listTokens({ userId: actor.id })} scope="own" />
        <CreateTokenForm role={actor.role} />
      </section>
    </div>
  );
}
