/**
 * The console in Korean and Traditional Chinese (issue 26 item 3): chosen by the browser's
 * Accept-Language, or on /profile, with dates in the locale and the chosen time zone. On the
 * pages converted so far (sign-in, profile, history, the queue) no English is left but data; parts
 * of the run page are not converted yet (tests/i18n/catalogs.test.ts lists them).
 */
import type { Page } from "@playwright/test";
import { expect, test, requests } from "./fixtures.ts";
import { callDetail, callRow } from "./support/queue-page.ts";

/** Words in Latin letters on the visible page that are not data (an account, a tool, an id). */
async function englishLeft(page: Page, data: string[]): Promise<string[]> {
  const text = await page.evaluate(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const parts: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("script, style, noscript, option, select, code, [hidden]")) continue;
      if (!parent.checkVisibility()) continue;
      parts.push(node.textContent ?? "");
    }
    // What assistive technology reads too.
    for (const element of document.querySelectorAll("[aria-label], [placeholder], [title]")) {
      if (!(element as HTMLElement).checkVisibility?.()) continue;
      for (const name of ["aria-label", "placeholder", "title"]) parts.push(element.getAttribute(name) ?? "");
    }
    return parts.join("\n");
  });
  let rest = text;
  for (const value of data.sort((a, b) => b.length - a.length)) rest = rest.split(value).join(" ");
  return [...new Set(rest.match(/[A-Za-z]{2,}/g) ?? [])];
}

/** Names that are the same in every language: the brand of a product, a setting's name, a zone. */
const PROPER_NAMES = ["Slack", "SMTP_URL", "MAIL_FROM", "CSV", "UTC", "GMT", "English", "ID"];

test.describe("in Korean, from the browser's Accept-Language", () => {
  test.use({ storageState: { cookies: [], origins: [] }, locale: "ko-KR" });

  test("sign-in and profile show Korean, nothing in English but data", async ({ page, users }) => {
    const account = await users.create({ role: "reviewer" });
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await expect(page.locator("html")).toHaveAttribute("lang", "ko");
    await expect(page.getByRole("heading", { name: "로그인" })).toBeVisible();
    await expect(page.getByText("에이전트 승인은 팀 구성원 전용입니다.")).toBeVisible();
    expect(await englishLeft(page, PROPER_NAMES)).toEqual([]);

    await page.getByLabel("이메일").fill(account.email);
    await page.getByLabel("비밀번호").fill("not-the-password");
    await page.getByRole("button", { name: "로그인", exact: true }).click();
    // (Next's route announcer is an alert too: the form's own is the one with text.)
    await expect(page.getByRole("alert").filter({ hasText: "이메일 또는 비밀번호가 올바르지 않습니다." })).toBeVisible();
    await page.getByLabel("비밀번호").fill(account.password);
    await page.getByRole("button", { name: "로그인", exact: true }).click();

    await expect(page.getByRole("heading", { name: "프로필" })).toBeVisible();
    await expect(page.getByRole("region", { name: "언어 및 시간대" })).toBeVisible();
    await expect(page.getByLabel("언어", { exact: true })).toHaveValue("");
    await expect(page.getByRole("link", { name: "기록" }).first()).toBeAttached();
    await expect(page).toHaveTitle("프로필 · 에이전트 승인");
    expect(await englishLeft(page, [...PROPER_NAMES, account.name, account.email])).toEqual([]);
  });
});

test.describe("in Traditional Chinese, chosen on the profile", () => {
  test.use({ locale: "en-US", timezoneId: "UTC" });

  test("the choice outranks the browser; the run page decides in Chinese and the history shows Taipei time", async ({
    page,
    users,
    suspendRun,
    testResource,
  }) => {
    const account = await users.create({ role: "reviewer" });
    await page.context().clearCookies();
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");

    const language = page.getByRole("region", { name: "Language and time zone" });
    await language.getByLabel("Language", { exact: true }).selectOption("zh-TW");
    await language.getByLabel("Time zone", { exact: true }).selectOption("Asia/Taipei");
    await language.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("heading", { name: "個人資料" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-TW");
    expect(await englishLeft(page, [...PROPER_NAMES, account.name, account.email, "Asia/Taipei"])).toEqual([]);

    // The decide story on the run page (its conversation and badges are not converted yet).
    const run = await suspendRun({ agent: "refunds", text: requests.refund({ amount: "12.00" }).text });
    await page.goto(`/runs/${encodeURIComponent(run.runId)}`);
    await expect(page.getByText("您的決定")).toBeVisible();
    await expect(page.getByText("暫停時間")).toBeVisible();
    // A date in the locale and the chosen zone: 2026年12月4日 下午02:03:04 [GMT+8].
    await expect(page.locator("dd time").first()).toHaveText(/\d{4}年\d{1,2}月\d{1,2}日.*GMT\+8/);
    await page.getByRole("button", { name: "核准", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "已核准。" })).toBeVisible();

    await page.goto(`/history?resourceId=${encodeURIComponent(testResource)}`);
    await expect(page.getByRole("heading", { name: "決定歷程記錄" })).toBeVisible();
    const row = page.locator("[data-history-entry]").first();
    await expect(row).toContainText("核准");
    await expect(row).toContainText("已套用");
    await expect(row.locator("time").first()).toHaveText(/\d{4}年\d{1,2}月\d{1,2}日.*GMT\+8/);
    // The agent's answer is the model's words, data like the arguments.
    const answer = await row.locator("dt", { hasText: "回應" }).locator("xpath=following-sibling::dd[1]").textContent();
    const data = [
      answer!,
      ...PROPER_NAMES,
      account.name,
      account.email,
      testResource,
      run.runId.slice(0, 8),
      run.agentId,
      "issueRefund",
      "refunds",
    ];
    expect(await englishLeft(page, data)).toEqual([]);
  });
});

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
      approval: "승인",
      open: /^issueRefund 열기/,
      arguments: "issueRefund의 인수",
      approve: "승인",
      outcome: "승인함 — 에이전트가 이어서 실행을 마쳤습니다.",
      announced: "issueRefund 승인함",
      empty: "이 필터에 맞는 대기 중인 도구 호출이 없습니다",
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
      approval: "需核准",
      open: /^開啟 issueRefund/,
      arguments: "issueRefund 的引數",
      approve: "核准",
      outcome: "已核准 — 代理程式已繼續並完成執行。",
      announced: "已核准 issueRefund",
      empty: "沒有符合這些篩選條件的待處理工具呼叫",
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
  });
}
