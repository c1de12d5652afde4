/**
 * The one rule for an absolute link the service hands out (a download link, Stripe Checkout's
 * return, the API document's `servers`): it starts with the configured public URL
 * (`AppConfig.publicBaseUrl`, from `PUBLIC_BASE_URL`) and never with anything a request says — its
 * `Host`, `X-Forwarded-Host` or `Origin` are the sender's to choose. Without a public URL the link
 * is path-absolute (`/api/v1/…`), and a client resolves it against the address it called.
 */
export function publicUrl(publicBaseUrl: string | null, path: `/${string}`): string {
  return `${publicBaseUrl ?? ''}${path}`;
}
