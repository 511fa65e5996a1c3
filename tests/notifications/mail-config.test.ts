/**
 * Email's settings (lib/notifications/mail-config.ts), read in one place: unset is off, a malformed
 * value is refused in one line naming it. And the message helpers' promises about hostile text.
 */
import { describe, expect, it } from "vitest";
import { mailSettings } from "../../lib/notifications/mail-config.ts";
import { escapeHtml, headerText, waitedFor } from "../../lib/notifications/message.ts";

describe("mail settings", () => {
  it("email is off without SMTP_URL", () => {
    expect(mailSettings({})).toBeNull();
    expect(mailSettings({ MAIL_FROM: "a@b.example" })).toBeNull();
  });

  it("reads smtp:// and smtps:// URLs and a sender with or without a name", () => {
    expect(mailSettings({ SMTP_URL: "smtp://user:pa%40ss@mail.example.com:587", MAIL_FROM: "Approvals <approvals@example.com>" })).toEqual({
      smtpUrl: "smtp://user:pa%40ss@mail.example.com:587",
      from: { name: "Approvals", address: "approvals@example.com" },
    });
    expect(mailSettings({ SMTP_URL: "smtps://mail.example.com", MAIL_FROM: " approvals@example.com " })?.from).toEqual({
      name: "",
      address: "approvals@example.com",
    });
  });

  it.each([
    [{ SMTP_URL: "http://mail.example.com", MAIL_FROM: "a@b.example" }, /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/],
    [{ SMTP_URL: "mail.example.com:587", MAIL_FROM: "a@b.example" }, /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/],
    [{ SMTP_URL: "smtp://mail.example.com" }, /MAIL_FROM is required with SMTP_URL/],
    [{ SMTP_URL: "smtp://mail.example.com", MAIL_FROM: "Approvals" }, /MAIL_FROM is not an address/],
    [{ SMTP_URL: "smtp://mail.example.com", MAIL_FROM: "Approvals <nope>" }, /MAIL_FROM is not an address/],
  ])("refuses %j in one line", (env, problem) => {
    expect(() => mailSettings(env)).toThrow(problem);
    try {
      mailSettings(env);
    } catch (error) {
      expect((error as Error).message).toMatch(/^Email is misconfigured: [^\n]+\.$/);
    }
  });
});

describe("message text", () => {
  it("a subject never holds a control character or line separator, and stays short", () => {
    const subject = headerText(`a\r\nBcc: x@y\u0000\u2028\u2029\u0085b${"c".repeat(300)}`);
    expect(subject).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(subject.startsWith("a Bcc: x@y")).toBe(true);
    expect(subject.length).toBeLessThanOrEqual(120);
  });

  it("HTML escapes markup and quotes and replaces NUL and lone surrogates", () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>\u0000\ud800`)).toBe(
      "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;\ufffd\ufffd",
    );
  });

  it("says how long a call has waited", () => {
    const now = new Date("2026-12-01T12:00:00Z");
    const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    expect(waitedFor(ago(0.5), now)).toBe("less than a minute");
    expect(waitedFor(ago(12), now)).toBe("12 min");
    expect(waitedFor(ago(60), now)).toBe("1 h");
    expect(waitedFor(ago(185), now)).toBe("3 h 5 min");
    expect(waitedFor(ago(3 * 24 * 60), now)).toBe("3 days");
    expect(waitedFor(null, now)).toBe("an unknown time");
  });
});
