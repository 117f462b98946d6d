import { buttonClass } from "@/components/ui/styles";

/**
 * "Sign in with …": a plain link (not next/link, whose prefetch would start a sign-in) to the route that
 * sends the browser to the identity provider.
 */
export function OidcButton({ name }: { name: string }) {
  return (
    <a href="/api/auth/oidc/login" className={`${buttonClass("secondary")} w-full`} data-testid="oidc-sign-in">
      Sign in with {name}
    </a>
  );
}
