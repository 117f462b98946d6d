import { NextResponse, type NextRequest } from "next/server";

// Passes the path being asked for to server components (as x-wirespeed-path), so that a
// page that needs a sign-in can send the visitor back to it afterwards. No check is
// made here: every page, action and route checks the role itself (lib/auth/guard.ts).
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set("x-wirespeed-path", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/).*)"],
};
