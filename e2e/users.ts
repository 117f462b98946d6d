import { expect, type Browser, type BrowserContext, type Page } from "@playwright/test";

// Users a spec adds through the Users page, and a browser of their own signed in as one of them.

export type SpecUser = { username: string; password: string; role: "admin" | "operator" | "viewer" };

/** Adds `user` through the Users page, as the admin `page` is signed in as. */
export async function addUserOnPage(page: Page, { username, password, role }: SpecUser): Promise<void> {
  await page.goto("/users");
  const form = page.getByRole("form", { name: "Add a user" });
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Password").fill(password);
  await form.getByLabel("Role").selectOption(role);
  await form.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByTestId("users-message")).toHaveText(`Created ${username}.`);
}

/**
 * A new browser context without the admin's cookie, signed in as `user` through the sign-in page:
 * its page and the context (close it when done).
 */
export async function signedInAs(
  browser: Browser,
  baseURL: string | undefined,
  { username, password, role }: SpecUser,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  try {
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("account-link")).toContainText(`${username} (${role})`);
    return { context, page };
  } catch (error) {
    await context.close();
    throw error;
  }
}
