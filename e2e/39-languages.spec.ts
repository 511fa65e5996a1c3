import type { Page } from "@playwright/test";
/**
 * The console in Korean and Traditional Chinese (issue 26 item 3): chosen by the browser's
 * Accept-Language, or on /profile, with dates in the locale and the chosen time zone. On the
 * pages (sign-in, profile, history, the queue, the run page, the admin pages) no English is left but
 * data (tests/i18n/catalogs.test.ts keeps every component in the catalogs).
 */
import { expect, test, requests } from "./fixtures.ts";
import { englishLeft, PROPER_NAMES, signIn, textsOf } from "./support/languages.ts";
import { screenshotIfAsked } from "./support/queue-page.ts";

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

test.describe("the run page in Traditional Chinese, from the browser's language and zone", () => {
  test.use({ storageState: { cookies: [], origins: [] }, locale: "zh-TW", timezoneId: "Asia/Taipei" });

  test("a waiting approval call: the conversation, earlier decisions and the thread in Chinese, dates in Taipei time", async ({
    page,
    users,
    suspendRun,
    testResource,
  }) => {
    const account = await users.create({ role: "reviewer" });
    const run = await suspendRun({ agent: "refunds", text: requests.refund({ amount: "12.00" }).text });
    await signIn(page, account, { email: "電子郵件", password: "密碼", submit: "登入" });

    await page.goto(`/runs/${encodeURIComponent(run.runId)}`);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-TW");
    await expect(page.getByText("您的決定")).toBeVisible();
    const conversation = page.getByRole("region", { name: "對話" });
    await expect(conversation.getByText("使用者", { exact: true })).toBeVisible();
    await expect(conversation.getByText("此呼叫正在等待您決定（引數顯示於決定區）")).toBeVisible();
    // A message's time in the locale and the browser's zone: 2026年12月4日 下午02:03:04 [GMT+8].
    await expect(conversation.locator("time").first()).toHaveText(/\d{4}年\d{1,2}月\d{1,2}日.*GMT\+8/);
    const earlier = page.getByRole("region", { name: "先前的決定" });
    await expect(earlier.getByTestId("earlier-counts")).toContainText("此客戶最近 30 天的");
    await page.getByRole("button", { name: "此對話串的先前內容" }).click();
    // The refunds agent keeps no memory: nothing of the thread is earlier for it.
    await expect(
      page.getByRole("region", { name: "此對話串的先前內容" }).getByText("此執行的代理程式不保留記憶", { exact: false }),
    ).toBeVisible();

    const data = [
      ...PROPER_NAMES,
      account.name,
      account.email,
      testResource,
      run.runId,
      run.runId.slice(0, 8),
      run.agentId,
      run.thread,
      "issueRefund",
      // Ids, tool names and JSON (arguments, results) are set in monospace; the messages are the customer's and the model's words.
      ...(await textsOf(page, "main .font-mono")),
      ...(await textsOf(page, "section li p.whitespace-pre-wrap")),
      // What the tool's author wrote about it ("About this tool").
      ...(await textsOf(page, "section[aria-label='關於此工具'] p, section[aria-label='關於此工具'] td")),
      "Refunds",
    ];
    expect(await englishLeft(page, data)).toEqual([]);
    await screenshotIfAsked(page, "zh-TW-run-page");
  });
});

test.describe("an admin page in Korean, from the browser's language", () => {
  test.use({ storageState: { cookies: [], origins: [] }, locale: "ko-KR" });

  test("the rules page: list, form, dry run and a saved rule's history in Korean", async ({ page, users }) => {
    const admin = await users.create({ role: "admin" });
    await signIn(page, admin, { email: "이메일", password: "비밀번호", submit: "로그인" });

    await page.goto("/admin/rules");
    await expect(page.getByRole("heading", { name: "규칙", exact: true })).toBeVisible();
    await expect(page).toHaveTitle("규칙 · 에이전트 승인");
    // Four eyes is enforced (e2e/36): the effect says what it does, nothing about "not yet".
    await expect(page.locator("option", { hasText: "여러 사람의 승인 필요" })).toBeAttached();
    await expect(page.locator("main")).not.toContainText("아직 적용 안 됨");
    const name = `ko-rule-${Date.now()}`;
    await page.getByLabel("이름").fill(name);
    await page.getByLabel("도구(비우면 전체)").fill("tool-that-never-runs");
    await page.getByRole("button", { name: "시험 실행" }).click();
    await expect(page.getByTestId("dry-run")).toContainText(/대기 중인 호출 \d+건 중 0건을 승인합니다\./);
    await page.getByRole("button", { name: "비활성으로 저장" }).click();
    await expect(page.getByRole("status").filter({ hasText: `"${name}"을(를) 저장했습니다(버전 1, 비활성).` })).toBeVisible();
    // What the saved version would do, shown after the save.
    await expect(page.getByRole("region", { name: `저장할 때 대기 중이던 호출에 대한 "${name}"(버전 1)의 시험 실행` })).toContainText(
      /대기 중인 호출 \d+건 중 0건을 승인합니다\./,
    );

    const rule = page.getByTestId("rule").filter({ hasText: name });
    await expect(rule).toContainText("승인 · 모든 에이전트 · 도구 tool-that-never-runs · 위험도 보통");
    await rule.getByText("변경 기록(1개 버전)").click();
    await expect(rule.getByText(/^버전 1: .+이\(가\) \d{4}년 \d{1,2}월 \d{1,2}일 .*에 생성/)).toBeVisible();

    // Other tests' rules may be listed too, and come and go while this reads: this test checks its own
    // rule and the page around it, so theirs are data, like the calls a dry run lists.
    await expect(async () => {
      const data = [
        ...PROPER_NAMES,
        admin.name,
        admin.email,
        "tool-that-never-runs",
        // How conditions are written, as JSON: the placeholder of the conditions field.
        '[{ "path": "amount", "op": "<=", "value": 50 }]',
        ...(await textsOf(page, "[data-testid=rule] span.font-medium")),
        ...(await textsOf(page, "[data-testid=dry-run] li")),
        ...(await othersRuleTexts(page, name)),
      ];
      expect(await englishLeft(page, data)).toEqual([]);
    }).toPass({ timeout: 15_000 });
    await rule.getByRole("button", { name: "삭제" }).click();
    await expect(page.getByTestId("rule").filter({ hasText: name })).toHaveCount(0);
  });
});

/** Each text node of the rules listed that are not `name`'s: other tests' rules. */
function othersRuleTexts(page: Page, name: string): Promise<string[]> {
  return page.evaluate((name) => {
    const texts: string[] = [];
    for (const rule of document.querySelectorAll("[data-testid=rule]")) {
      if (rule.textContent?.includes(name)) continue;
      const walker = document.createTreeWalker(rule, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.textContent?.trim()) texts.push(node.textContent.trim());
    }
    return texts;
  }, name);
}
