import { expect, test as setup } from "./fixtures";
import { E2E_ADMIN, adminStorageState } from "./api";

// Signs in through the sign-in page as the seeded admin; the other specs start from this
// browser state (playwright.config.ts), and the accounts spec tests other roles itself.
setup("sign in as the seeded admin", async ({ page, baseURL }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Username").fill(E2E_ADMIN.username);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("account-link")).toContainText(`${E2E_ADMIN.username} (admin)`);
  await page.context().storageState({ path: adminStorageState(Number(new URL(baseURL!).port)) });
});
