import type { Metadata, Viewport } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { NavLinks } from "@/components/NavLinks";
import { SignOutButton } from "@/components/auth/SignOutButton";
import { ViewerProvider } from "@/components/auth/ViewerContext";
import { currentSessionPrincipal } from "@/lib/auth/guard";
import { viewerOf } from "@/lib/auth/principal";
import { can } from "@/lib/auth/roles";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Wirespeed", template: "%s · Wirespeed" },
  description: "What each link of your lab really delivers, measured with iperf3.",
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f8fafc" },
    { media: "(prefers-color-scheme: dark)", color: "#020617" },
  ],
};

// The header shows who is signed in; each page checks the role itself (lib/auth/guard.ts).
export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: a page prerendered at build time would carry no nonce,
  // and the Content-Security-Policy of proxy.ts would block its scripts. (No inline script
  // of the app's own needs the nonce today; one would read it from the x-nonce header.)
  await connection();
  // A share link's page (/s/TOKEN) is for anyone: no navigation, no account, nothing but the page.
  if ((await headers()).get("x-wirespeed-path")?.startsWith("/s/")) {
    return (
      <html lang="en">
        <body className="min-h-screen font-sans antialiased">
          <Providers>
            <ViewerProvider viewer={null}>
              <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
            </ViewerProvider>
          </Providers>
        </body>
      </html>
    );
  }
  const principal = await currentSessionPrincipal();
  const viewer = principal ? viewerOf(principal) : null;
  return (
    <html lang="en">
      <body className="min-h-screen font-sans antialiased">
        <Providers>
          <ViewerProvider viewer={viewer}>
            <header className="border-b border-slate-200 bg-white/80 backdrop-blur dark:border-slate-800 dark:bg-slate-900/80">
              <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-4 px-4 py-3">
                <Link href="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight">
                  <span aria-hidden className="inline-block h-3 w-3 rounded-full bg-sky-500" />
                  Wirespeed
                </Link>
                {viewer ? <NavLinks isAdmin={can(viewer.role, "users")} canShare={can(viewer.role, "share")} /> : null}
                {viewer ? (
                  <div className="ml-auto flex items-center gap-2 text-sm">
                    <Link
                      href="/account"
                      className="rounded-md px-2 py-1 font-medium text-slate-700 hover:bg-slate-200 dark:text-slate-200 dark:hover:bg-slate-800"
                      data-testid="account-link"
                    >
                      {viewer.name}{" "}
                      <span className="text-xs font-normal text-slate-600 dark:text-slate-400">({viewer.role})</span>
                    </Link>
                    {/* A user a trusted proxy names is signed in at every request: signing out is the proxy's. */}
                    {principal?.via === "proxy" ? null : <SignOutButton />}
                  </div>
                ) : null}
              </nav>
            </header>
            <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
          </ViewerProvider>
        </Providers>
      </body>
    </html>
  );
}
