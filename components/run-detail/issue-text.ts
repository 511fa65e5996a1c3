"use client";

/**
 * An input problem (lib/decisions/issues.ts, json-syntax.ts) in the reader's language: its catalog
 * words when it has them, else the sentence as the schema's author wrote it.
 */
import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { sayIssue, type IssueWords } from "@/lib/decisions/issue-words";

export function useIssueWords(): (words: IssueWords) => string {
  const t = useTranslations("runDetail.issues");
  return useCallback((words: IssueWords) => sayIssue(words, (key, values) => t(key, values)), [t]);
}

export function useIssueText(): (issue: { message?: string; words?: IssueWords }) => string {
  const say = useIssueWords();
  return useCallback((issue) => (issue.words ? say(issue.words) : (issue.message ?? "")), [say]);
}
