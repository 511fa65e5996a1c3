import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";
import { sayLinkProblem, type LinkProblem } from "@/lib/link-problem-words";

/**
 * What a list left out of its link and why (lib/search-params.ts `sanitizeQuery`), in the reader's
 * language (the problems' catalog words; their English message is for the JSON answers); nothing when all applied.
 */
export function IgnoredParameters({ problems }: { problems: LinkProblem[] }) {
  const t = useTranslations("runDetail");
  const words = useTranslations("linkProblems");
  if (problems.length === 0) return null;
  return (
    <Alert variant="warning" role="alert" title={t("ignoredParameters")}>
      <ul className="list-disc pl-5">
        {problems.map((problem) => (
          <li key={problem.message}>{sayLinkProblem(problem.words, (key, values) => words(key, values))}</li>
        ))}
      </ul>
    </Alert>
  );
}
