/**
 * The review queue in Korean and Traditional Chinese (issue 26 item 3): the sign-in → queue → decide
 * story, with no English left on the page apart from data, and the dates in the locale.
 */
import { expect, test, requests } from "./fixtures.ts";
import { callDetail, callRow, screenshotIfAsked } from "./support/queue-page.ts";
import { englishLeft, PROPER_NAMES, signIn } from "./support/languages.ts";
import { seriousViolations } from "./support/axe.ts";

/**
 * The reviewer's story on the queue, in each language from the browser alone (Accept-Language and
 * the browser's time zone): sign in, find the call, open it, approve it in place.
 */
const QUEUE_STORIES = [
  {
    locale: "ko",
    browserLocale: "ko-KR",
    timezoneId: "Asia/Seoul",
    words: {
      email: "이메일",
      password: "비밀번호",
      signIn: "로그인",
      heading: "대기 중인 실행",
      noThread: "스레드 없음",
      noThreadGroup: /^스레드 없음 그룹 (접기|펼치기)$/,
      approval: "승인",
      open: /^issueRefund 열기/,
      arguments: "issueRefund의 인수",
      approve: "승인",
      outcome: "승인함 — 에이전트가 이어서 실행을 마쳤습니다.",
      announced: "issueRefund 승인함",
      empty: "이 필터에 맞는 대기 중인 도구 호출이 없습니다",
      ignored: "이 링크의 일부 매개변수가 올바르지 않아 무시되었습니다",
      perPageIgnored: "perPage=7 매개변수를 무시했습니다: perPage 값은 다음 중 하나여야 합니다: 10, 20, 50, 100",
      threadIgnored: `threadId=${"t".repeat(40)}… 매개변수를 무시했습니다: 스레드 ID 값이 256자보다 깁니다`,
    },
    // "2026년 12월 4일 오후 09시 44분 48초 GMT+9": the date in Korean, the time in Seoul's zone.
    date: /^\d{4}년 \d{1,2}월 \d{1,2}일 .*GMT\+9$/,
  },
  {
    locale: "zh-TW",
    browserLocale: "zh-TW",
    timezoneId: "Asia/Taipei",
    words: {
      email: "電子郵件",
      password: "密碼",
      signIn: "登入",
      heading: "待處理的執行",
      noThread: "無對話串",
      noThreadGroup: /^(收合|展開) 無對話串的執行$/,
      approval: "需核准",
      open: /^開啟 issueRefund/,
      arguments: "issueRefund 的引數",
      approve: "核准",
      outcome: "已核准 — 代理程式已繼續並完成執行。",
      announced: "已核准 issueRefund",
      empty: "沒有符合這些篩選條件的待處理工具呼叫",
      ignored: "此連結中有部分參數無效，已略過",
      perPageIgnored: "已略過 perPage=7：perPage 必須是下列其中之一：10, 20, 50, 100",
      threadIgnored: `已略過 threadId=${"t".repeat(40)}…：對話串 ID超過 256 個字元`,
    },
    // "2026年12月4日 下午08:44:48 [GMT+8]": the date in Chinese, the time in Taipei's zone.
    date: /^\d{4}年\d{1,2}月\d{1,2}日 .*GMT\+8/,
  },
] as const;

for (const story of QUEUE_STORIES) {
  test.describe(`the queue in ${story.locale}`, () => {
    test.use({ storageState: { cookies: [], origins: [] }, locale: story.browserLocale, timezoneId: story.timezoneId });

    test("sign in, open a waiting call and approve it in place: nothing in English but data, dates in the locale", async ({
      page,
      users,
      suspendRun,
      testResource,
      effectsOf,
      isPending,
    }) => {
      const account = await users.create({ role: "reviewer" });
      const run = await suspendRun({ agent: "refunds", text: requests.refund({ amount: "14.00" }).text });
      const queue = `/?resourceId=${encodeURIComponent(testResource)}`;

      await page.goto(queue);
      await expect(page).toHaveURL(/\/sign-in\?next=/);
      await page.getByLabel(story.words.email).fill(account.email);
      await page.getByLabel(story.words.password).fill(account.password);
      await page.getByRole("button", { name: story.words.signIn, exact: true }).click();

      await expect(page.getByRole("heading", { name: story.words.heading })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", story.locale);
      const row = callRow(page, run);
      await expect(row).toBeVisible();
      await expect(row).toContainText(story.words.approval);
      // How long it waits, with the moment it started waiting in the reader's language and zone.
      await expect(row.locator("time")).toHaveAttribute("title", story.date);

      // Data: the account, the tool, the agent, the thread, the resource, the run's id, what the agent
      // was asked, the example ids in the filters, and the Enter key's name in the shortcut hint.
      const excerpt = (await row.locator("[data-request-excerpt]").getAttribute("title")) ?? "";
      const data = [
        ...PROPER_NAMES,
        account.name,
        account.email,
        "issueRefund",
        "Refunds",
        testResource,
        run.thread,
        // The run's id: its first 8 characters in the cell, the whole id in the cell's title.
        run.runId,
        run.runId.slice(0, 8),
        excerpt,
        "cust_1001",
        "ticket-4800",
        "Enter",
      ];
      expect(await englishLeft(page, data)).toEqual([]);
      await screenshotIfAsked(page, `${story.locale}-queue`);

      await row.getByRole("button", { name: story.words.open }).click();
      const detail = callDetail(page, run);
      await expect(detail.getByRole("group", { name: story.words.arguments })).toBeVisible();
      await detail.getByRole("button", { name: story.words.approve, exact: true }).click();
      await expect(detail.getByRole("status")).toContainText(story.words.outcome);
      await expect(page.getByTestId("decision-announcer")).toHaveText(story.words.announced);

      // The decided call leaves; what is left of the queue is in the reader's language too.
      await expect(row).toHaveCount(0);
      await expect(page.getByText(story.words.empty)).toBeVisible();
      expect(await englishLeft(page, data)).toEqual([]);
      expect(await effectsOf(run)).toBe(1);
      expect(await isPending(run)).toBe(false);
    });

    test("a thread and the group without one break no serious accessibility rule: each toggle's name says what it shows", async ({
      page,
      users,
      suspendRun,
      testResource,
    }) => {
      const account = await users.create({ role: "reviewer" });
      await suspendRun({ agent: "refunds", text: requests.refund({ amount: "15.00" }).text });
      await suspendRun({ agent: "refunds", text: requests.refund({ amount: "16.00" }).text, thread: null });
      await signIn(page, account, { email: story.words.email, password: story.words.password, submit: story.words.signIn });
      await page.goto(`/?resourceId=${encodeURIComponent(testResource)}`);
      await expect(page.locator("tr[data-call-row]")).toHaveCount(2);
      expect(await seriousViolations(page)).toEqual([]);
      await expect(page.getByRole("button", { name: story.words.noThreadGroup })).toHaveText(story.words.noThread);
    });

    test("a link with invalid parameters says what was ignored and why in the locale, nothing in English but data", async ({
      page,
      users,
      testResource,
    }) => {
      const account = await users.create({ role: "reviewer" });
      await signIn(page, account, { email: story.words.email, password: story.words.password, submit: story.words.signIn });
      // perPage is not a page size; the thread id is longer than any id: both ignored, the resource still applies.
      await page.goto(`/?resourceId=${encodeURIComponent(testResource)}&perPage=7&threadId=${"t".repeat(300)}`);
      const alert = page.getByRole("alert").filter({ hasText: story.words.ignored });
      await expect(alert).toContainText(story.words.perPageIgnored);
      await expect(alert).toContainText(story.words.threadIgnored);
      await expect(page.getByText(story.words.empty)).toBeVisible();
      // Data: the account, the resource, the parameters as the link wrote them, the page sizes, the filters' examples.
      const data = [
        ...PROPER_NAMES,
        account.name,
        account.email,
        testResource,
        "perPage",
        "threadId",
        "t".repeat(40),
        "cust_1001",
        "ticket-4800",
        "Enter",
      ];
      expect(await englishLeft(page, data)).toEqual([]);
      await screenshotIfAsked(page, `${story.locale}-queue-ignored-parameters`);
    });
  });
}
