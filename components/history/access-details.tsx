import { useFormatter, useTranslations } from "next-intl";
import { isRole } from "@/lib/auth/roles";
import type { AccessSubject } from "@/lib/auth/token-dto";

/**
 * What an access change gave or took, in the reader's words: which token (name, prefix, owner,
 * scopes, expiry), service account or user (with the role). Names and emails are shown as text.
 */
export function AccessDetails({ subject }: { subject: AccessSubject }) {
  const t = useTranslations("history.access");
  const tRole = useTranslations("roles");
  const format = useFormatter();
  const role = (value: string | null | undefined) => (value && isRole(value) ? tRole(value) : (value ?? "—"));
  const lines: string[] = [];
  if (subject.kind === "token") {
    lines.push(t("token", { name: subject.name, prefix: subject.prefix, owner: subject.owner.label }));
    lines.push(t("scopes", { scopes: subject.scopes.join(", ") }));
    lines.push(
      subject.expiresAt ? t("expires", { date: format.dateTime(new Date(subject.expiresAt), { dateStyle: "medium" }) }) : t("neverExpires"),
    );
  } else if (subject.kind === "service-account") {
    lines.push(t("serviceAccount", { name: subject.name, role: role(subject.role) }));
  } else if (subject.previousRole !== undefined) {
    lines.push(t("roleChange", { email: subject.email, from: role(subject.previousRole), to: role(subject.role) }));
  } else {
    lines.push(t("user", { email: subject.email, role: role(subject.role) }));
  }
  return (
    <dl data-testid="access-details">
      <dt className="sr-only">{t("what")}</dt>
      {lines.map((line) => (
        <dd key={line} className="[overflow-wrap:anywhere]">
          {line}
        </dd>
      ))}
    </dl>
  );
}
