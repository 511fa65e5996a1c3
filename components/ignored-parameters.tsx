import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";

/** What a list left out of its link and why (lib/search-params.ts `sanitizeQuery`); nothing when all applied. */
export function IgnoredParameters({ problems }: { problems: string[] }) {
  const t = useTranslations("runDetail");
  if (problems.length === 0) return null;
  return (
    <Alert variant="warning" role="alert" title={t("ignoredParameters")}>
      <ul className="list-disc pl-5">
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </Alert>
  );
}
