/**
 * Who is deciding. Until sign-in exists, reviewers name themselves: the name travels in a cookie
 * and is recorded with every decision and audit entry. Anything unusable becomes "anonymous".
 */
import { cookies } from "next/headers";

export const REVIEWER_COOKIE = "reviewer";
export const ANONYMOUS_REVIEWER = "anonymous";
export const REVIEWER_NAME_MAX = 80;

export function normalizeReviewerName(raw: string | undefined | null): string | undefined {
  if (!raw) return undefined;
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  // Control characters would corrupt the CSV export and the log; names are for people.
  name = name.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return name && name.length <= REVIEWER_NAME_MAX ? name : undefined;
}

export async function currentReviewer(): Promise<string> {
  try {
    return normalizeReviewerName((await cookies()).get(REVIEWER_COOKIE)?.value) ?? ANONYMOUS_REVIEWER;
  } catch {
    // Outside a request (scripts, tests calling actions directly) there is no cookie to read.
    return ANONYMOUS_REVIEWER;
  }
}
