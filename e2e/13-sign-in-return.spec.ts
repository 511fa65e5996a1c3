import { expect, test } from "./fixtures.ts";
import { demoAccount, fillSignInForm } from "./support/users.ts";

// A link to sign-in whose `next` a browser reads as another site must still end on the console.
test.use({ storageState: { cookies: [], origins: [] } });

for (const next of ["%2F%09%2Fevil.example%2F", "%2F%0D%2Fevil.example%2F", "%2F%0A%2Fevil.example%2F"]) {
  test(`signing in from /sign-in?next=${next} stays on the console`, async ({ page, baseURL }) => {
    const leftTheConsole: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).origin !== baseURL) leftTheConsole.push(request.url());
    });
    await page.goto(`/sign-in?next=${next}`);
    await fillSignInForm(page, demoAccount("reviewer"));
    await expect(page.getByRole("heading", { name: "Pending runs" })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(baseURL);
    expect(leftTheConsole).toEqual([]);
  });
}
