/**
 * Why a list ignored a URL parameter, in the reader's language (issue 26 item 3): every kind of
 * problem lib/search-params.ts reports carries catalog words that read in Korean and Traditional
 * Chinese with no English left but data, while its English message (the JSON answers') stays the
 * sentence it always was.
 */
import { createTranslator } from "use-intl/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CATALOGS } from "../../lib/i18n/catalogs.ts";
import { sayLinkProblem, type LinkProblem, type LinkProblemKey, type LinkProblemWords } from "../../lib/link-problems.ts";
import { sanitizeInsightsQuery } from "../../lib/insights/validations.ts";
import { queueQuery, sanitizeAuditQuery, sanitizeQuery, sanitizeQueueQuery } from "../../lib/search-params.ts";

const LONG_ID = "r".repeat(300);

/** Links that between them hit every kind of problem, with the English each must still say. */
const QUEUE_LINKS: Array<[Record<string, string>, string[]]> = [
  [
    { resourceId: LONG_ID, threadId: "a\u0000b", agentId: "a\u0001b", from: "2026-02-30", to: "+010000-01-01", page: "abc", perPage: "7" },
    [
      `resourceId=${"r".repeat(40)}… was ignored: Resource ID is longer than 256 characters`,
      "threadId=a\u0000b was ignored: Thread ID contains a NUL character (U+0000)",
      "agentId=a\u0001b was ignored: Agent contains a control character",
      "from=2026-02-30 was ignored: From is not a valid date (use YYYY-MM-DD)",
      "to=+010000-01-01 was ignored: To must be a date from 0001-01-01 to 9999-12-31 (UTC)",
      "page=abc was ignored: page must be a number",
      "perPage=7 was ignored: perPage must be one of 10, 20, 50, 100",
    ],
  ],
  [
    { sort: "sideways", overdue: "yes", assigned: "you", risk: "severe", agentId: "\ud800", page: "0" },
    [
      "agentId=\ud800 was ignored: Agent contains an unpaired UTF-16 surrogate (not valid Unicode)",
      "page=0 was ignored: page starts at 1",
      "sort=sideways was ignored: sort must be one of oldest, newest, risk",
      "overdue=yes was ignored: overdue must be 1 (or left out)",
      "assigned=you was ignored: assigned must be me (or left out)",
      "risk=severe was ignored: risk must be one or more of low, medium, high, critical, comma-separated",
    ],
  ],
  [
    { page: "2000000", perPage: "99999999999999999999" },
    [
      "page=2000000 was ignored: page must be at most 1000000",
      "perPage=99999999999999999999 was ignored: perPage must be at most 9007199254740991",
    ],
  ],
  [{ from: "2026-03-02", to: "2026-03-01" }, ["to=2026-03-01 was ignored: From must not be after To"]],
  [{ threadId: "t-1", noThread: "1" }, ["noThread=1 was ignored: noThread and a Thread ID exclude each other"]],
];
const HISTORY_LINKS: Array<[Record<string, string>, string[]]> = [
  [
    { outcome: "maybe", reviewer: "x".repeat(257), toolName: "t".repeat(257), batch: "b\u0007" },
    [
      `reviewer=${"x".repeat(40)}… was ignored: Reviewer is longer than 256 characters`,
      `toolName=${"t".repeat(40)}… was ignored: Tool is longer than 256 characters`,
      "outcome=maybe was ignored: Outcome must be one of recorded, approved, applied, expired, failed, released, interrupted, recovered, refused, conflict, decided-outside",
      "batch=b\u0007 was ignored: Batch contains a control character",
    ],
  ],
  [{ kind: "grants", outcome: "recorded" }, ["kind=grants was ignored: Kind must be one of decisions, access"]],
  [
    { toolName: "t\u0007", runId: "r\u0000" },
    [
      "toolName=t\u0007 was ignored: Tool contains a control character",
      "runId=r\u0000 was ignored: Run ID contains a NUL character (U+0000)",
    ],
  ],
];

/** /insights (lib/insights/validations.ts): its period and filters. */
const INSIGHTS_LINKS: Array<[Record<string, string>, string[]]> = [
  [
    { period: "14", from: "2026-02-30", risk: "severe", timeZone: "Mars/Base" },
    [
      "period=14 was ignored: period must be one of 7, 30, 90",
      "from=2026-02-30 was ignored: From is not a valid date (use YYYY-MM-DD)",
      "risk=severe was ignored: risk must be one of low, medium, high, critical, unrated",
      "timeZone=Mars/Base was ignored: timeZone must be an IANA time zone, like Europe/Berlin",
    ],
  ],
  [{ to: "2026-01-01" }, ["to=2026-01-01 was ignored: From and To go together"]],
  [{ period: "7", from: "2026-01-01", to: "2026-01-02" }, ["period=7 was ignored: either a period or From and To, not both"]],
  [
    { from: "2025-01-01", to: "2026-06-01" },
    ["to=2026-06-01 was ignored: a period of at most 366 days", "from=2025-01-01 was ignored: From and To go together"],
  ],
  [{ resourcePrefix: "   " }, ["resourcePrefix=    was ignored: Resource prefix must not be empty"]],
  [{ unknown: "1" }, ["The link's filters could not be read; showing the last 30 days."]],
];

/** Notations and names the same in every language (noThread: the parameter named inside a sentence). */
const NOTATIONS = ["YYYY-MM-DD", "UTF-16", "U+0000", "Unicode", "NUL", "UTC", "ID", "noThread", "IANA"];

function everyProblem(): LinkProblem[] {
  const unreadable = sanitizeQuery(
    z.object({ a: z.string().optional() }).refine((query) => !query.a, { message: "a is not wanted here", path: [] }),
    { a: "1" },
    "unreadableHistory",
  );
  return [
    ...QUEUE_LINKS.flatMap(([raw]) => sanitizeQueueQuery(raw).problems),
    ...HISTORY_LINKS.flatMap(([raw]) => sanitizeAuditQuery(raw).problems),
    ...INSIGHTS_LINKS.flatMap(([raw]) => sanitizeInsightsQuery(raw).problems),
    ...unreadable.problems,
    ...sanitizeQuery(
      z.object({ a: z.string().optional() }).refine((query) => !query.a, { path: [] }),
      { a: "1" },
      "unreadableQueue",
    ).problems,
  ];
}

/** The arguments that are data: a parameter's name and value, a list of the values it takes, a limit. */
function dataOf(words: LinkProblemWords): string[] {
  return Object.values(words.values ?? {}).flatMap((value) => (typeof value === "object" ? dataOf(value) : value.split(", ")));
}

function keysOf(words: LinkProblemWords): LinkProblemKey[] {
  return [words.key, ...Object.values(words.values ?? {}).flatMap((value) => (typeof value === "object" ? keysOf(value) : []))];
}

describe("ignored URL parameters", () => {
  it("keep their English sentences (the JSON answers' and an English reader's)", () => {
    for (const [raw, expected] of QUEUE_LINKS) expect(sanitizeQueueQuery(raw).problems.map((problem) => problem.message)).toEqual(expected);
    for (const [raw, expected] of HISTORY_LINKS)
      expect(sanitizeAuditQuery(raw).problems.map((problem) => problem.message)).toEqual(expected);
    for (const [raw, expected] of INSIGHTS_LINKS)
      expect(sanitizeInsightsQuery(raw).problems.map((problem) => problem.message)).toEqual(expected);
    // GET /api/queue refuses with the schema's own messages: the same English.
    const refused = queueQuery.safeParse({ perPage: "7", sort: "x" });
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual([
      "perPage must be one of 10, 20, 50, 100",
      "sort must be one of oldest, newest, risk",
    ]);
  });

  it("cover every kind of problem the catalogs word (all but the fallback for a reason without words)", () => {
    const used = new Set(everyProblem().flatMap((problem) => keysOf(problem.words)));
    const unused = Object.keys(CATALOGS.en.linkProblems).filter((key) => !used.has(key as LinkProblemKey));
    expect(unused).toEqual(["asWritten"]);
  });

  for (const locale of ["ko", "zh-TW"] as const) {
    it(`read in ${locale}: every problem in the catalog, unlike the English, with nothing English left but data`, () => {
      const errors: string[] = [];
      const onError = (error: Error) => errors.push(error.message);
      const say = (lang: "en" | typeof locale, problem: LinkProblem) => {
        const t = createTranslator({ locale: lang, messages: CATALOGS[lang], namespace: "linkProblems", onError });
        return sayLinkProblem(problem.words, (key, values) => t(key, values));
      };
      for (const problem of everyProblem()) {
        const english = say("en", problem);
        const translated = say(locale, problem);
        expect(english).toBe(problem.message);
        expect(translated).not.toBe(english);
        let rest = translated;
        for (const data of [...dataOf(problem.words), ...NOTATIONS].sort((a, b) => b.length - a.length)) rest = rest.split(data).join(" ");
        expect(rest.match(/[A-Za-z]{2,}/g) ?? [], `${locale}: ${translated}`).toEqual([]);
      }
      expect(errors).toEqual([]);
    });
  }
});
