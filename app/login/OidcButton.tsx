import { buttonClass } from "@/components/ui/styles";

/**
 * "Sign in with …": a plain link (not next/link, whose prefetch would start a sign-in) to the route that
 * sends the browser to the identity provider.
 */
export function OidcButton({ name, next }: { name: string; next?: string }) {
  const href = next ? `/api/auth/oidc/login?next=${encodeURIComponent(next)}` : "/api/auth/oidc/login";
  return (
    <a href={href} className={`${buttonClass("secondary")} w-full`} data-testid="oidc-sign-in">
      Sign in with {name}
    </a>
  );
}
