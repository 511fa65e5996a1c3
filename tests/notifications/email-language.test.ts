/**
 * Emails in the recipient's language (issue 26 item 3), on SQLite and PostgreSQL: a reviewer who
 * chose Korean or Traditional Chinese on /profile is mailed in it, one who chose nothing in
 * English; hostile values stay escaped in every language.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { emitEvent } from "../../lib/events/outbox.ts";
import { digestEmail, type NotifiedCall } from "../../lib/notifications/message.ts";
import { sendDueEmails } from "../../lib/notifications/worker.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { useEmailSetup } from "../helpers/email.ts";

describe.each(["sqlite", "postgres"] as const)("emails in the recipient's language on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  const email = useEmailSetup(database);

  it("mails each assignee in their own language, English without a choice", async () => {
    const db = await getDb(database.url);
    const kim = await email.account("reviewer", "immediate");
    const lin = await email.account("reviewer", "immediate");
    const ann = await email.account("reviewer", "immediate");
    await db.user.update({ where: { id: kim.id }, data: { locale: "ko", timeZone: "Asia/Seoul" } });
    await db.user.update({ where: { id: lin.id }, data: { locale: "zh-TW" } });
    // A value that is not a language of ours (written behind the form's back) reads as no choice.
    await db.user.update({ where: { id: ann.id }, data: { locale: "xx-<script>" } });
    for (const [index, assignee] of [kim, lin, ann].entries()) {
      await db.$transaction((tx) =>
        emitEvent(tx, "call.assigned", {
          runId: `run-lang-${index}`,
          toolCallId: "call-1",
          toolName: "<b>issueRefund</b>",
          agentId: "refunds",
          threadId: "ticket-1",
          resourceId: "cust_1",
          waitingSince: new Date(Date.now() - 90 * 60_000).toISOString(),
          assigneeId: assignee.id,
          assigneeEmail: assignee.email,
          assignedBy: "ada@example.com",
        }),
      );
    }
    expect(await sendDueEmails({ databaseUrl: database.url })).toBe(3);

    const [korean] = email.mailsTo(kim);
    expect(korean!.parsed.subject).toBe("나에게 배정됨: cust_1의 <b>issueRefund</b>(refunds)");
    expect(korean!.parsed.text).toContain("ada@example.com 님이 나에게 배정함: <b>issueRefund</b>");
    expect(korean!.parsed.text).toContain("대기 시간: 1시간 30분");
    expect(korean!.parsed.html).toContain('<html lang="ko">');
    expect(korean!.parsed.html).toContain("&lt;b&gt;issueRefund&lt;/b&gt;");
    expect(korean!.parsed.html).not.toContain("<b>issueRefund");

    const [chinese] = email.mailsTo(lin);
    expect(chinese!.parsed.subject).toBe("已指派給您：cust_1 的 <b>issueRefund</b>（refunds）");
    expect(chinese!.parsed.text).toContain("已等待: 1 小時 30 分鐘");
    expect(chinese!.parsed.text).toContain("您收到這封電子郵件是因為您的通知設定");

    const [english] = email.mailsTo(ann);
    expect(english!.parsed.subject).toBe("Assigned to you: <b>issueRefund</b> (refunds) for cust_1");
    expect(english!.parsed.text).toContain("Waiting for: 1 h 30 min");
  });
});

describe("the digest in each language", () => {
  const call = (decided: boolean): NotifiedCall => ({
    type: "call.waiting",
    runId: "run-1",
    toolCallId: "call-1",
    toolName: "issueRefund",
    agentId: "refunds",
    resourceId: "cust_1",
    threadId: "t-1",
    waitingSince: new Date("2026-12-04T00:00:00Z"),
    assignedBy: "",
    decided,
  });
  const now = new Date("2026-12-04T03:00:00Z");

  it("counts with the language's plural rules", () => {
    expect(digestEmail([call(false)], now).subject).toBe("Approvals digest: 1 call waiting");
    expect(digestEmail([call(false), call(false), call(true)], now).subject).toBe("Approvals digest: 2 calls waiting");
    expect(digestEmail([call(false), call(true)], now, { locale: "ko" }).subject).toBe("승인 요약: 호출 1개 대기 중");
    const chinese = digestEmail([call(false), call(true)], now, { locale: "zh-TW" });
    expect(chinese.subject).toBe("審核摘要：1 個呼叫等待中");
    expect(chinese.text).toContain("已在主控台中決定：");
  });
});
