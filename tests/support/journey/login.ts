import type { Browser, Page, Response } from 'playwright-core';
import { onPage, phonePage } from './contexts';
import type { ScreenChecks } from './screens';
import { zhText } from './text';

export const DEMO = { account: 'demo', password: 'demo123456' } as const;

/** Fills the account form of a login page and submits it, as a learner does. */
export async function loginByPassword(page: Page): Promise<void> {
  await page.getByLabel(zhText('login.account'), { exact: true }).fill(DEMO.account);
  await page.getByLabel(zhText('login.password'), { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: zhText('login.submit'), exact: true }).click();
}

/** The QR link the login page is showing, read from its getAuthQRCode answer. */
export async function qrLinkFrom(response: Response): Promise<string> {
  const body = (await response.json()) as { code: number; msg: string; data?: { url?: string } };
  if (body.code !== 200 || !body.data?.url) throw new Error(`qr_url answered ${body.code}: ${body.msg}`);
  return body.data.url;
}

/**
 * Opens the QR link in a second, phone-sized browser (its own cookies: not logged in), signs in there
 * and confirms, as a learner scanning the kiosk's code does. The phone's screens are checked too.
 */
export async function confirmQrOnPhone(
  browser: Browser,
  link: string,
  checks: ScreenChecks,
  errors: string[],
): Promise<void> {
  const { context, page } = await phonePage(browser, errors);
  try {
    await page.goto(link);
    await page.getByRole('heading', { name: '确认登录电脑端' }).waitFor();
    await checks.check(page, 'phone-qr-confirm');
    await page.getByLabel('账号').fill(DEMO.account);
    await page.getByLabel('密码').fill(DEMO.password);
    await page.getByRole('button', { name: /确认登录/ }).click();
    await page.getByRole('heading', { name: '已确认，请回到电脑继续' }).waitFor();
    await checks.check(page, 'phone-qr-confirmed');
  } finally {
    await context.close();
  }
}

/** Waits for a guarded page's login redirect: `{prefix}/login?redirect=…`. */
export async function onLogin(page: Page, part: 'prpo' | 'prpt'): Promise<void> {
  await onPage(page, `${part}/login`);
}
