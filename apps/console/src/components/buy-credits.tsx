import { checkoutPoints, formatUsd, startCheckout, type DocconvClient, type PaymentOffer } from '@docconv/client';
import { useState } from 'preact/hooks';
import { t, tn } from '../i18n';
import { Problem } from './problem';

/** What the account page remembers across the trip to Stripe's page and back (this tab only). */
export interface PendingCheckout {
  /** The payments listed before leaving: a new one is the purchase. */
  paymentIds: string[];
  points: number;
}

export const PENDING_CHECKOUT_KEY = 'docconv.pendingCheckout';

const PRESETS = [10, 25, 50, 100];

/** The presets the offer allows; its smallest amount when none is. */
function presetsOf(offer: PaymentOffer): number[] {
  const allowed = PRESETS.filter((usd) => usd >= offer.min_usd && usd <= offer.max_usd);
  return allowed.length > 0 ? allowed : [offer.min_usd];
}

/**
 * Buying credits: pick an amount (a preset or another whole number of dollars within the
 * service's bounds), see the points it adds, and continue to Stripe's checkout page.
 */
export function BuyCredits({
  client,
  offer,
  paymentIds,
}: {
  client: DocconvClient;
  offer: PaymentOffer;
  paymentIds: string[];
}) {
  const presets = presetsOf(offer);
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState<number | 'custom'>(presets[0]);
  const [custom, setCustom] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const usd = choice === 'custom' ? Number(custom) : choice;
  const points = choice === 'custom' && custom.trim() === '' ? null : checkoutPoints(offer, usd);

  async function proceed(event: Event) {
    event.preventDefault();
    if (points === null) return;
    setBusy(true);
    setError(undefined);
    try {
      const idempotencyKey = typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : undefined;
      const checkout = await startCheckout(client, usd, { idempotencyKey });
      const pending: PendingCheckout = { paymentIds, points: checkout.points };
      sessionStorage.setItem(PENDING_CHECKOUT_KEY, JSON.stringify(pending));
      window.location.assign(checkout.url);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  if (!open) {
    return (
      <button type="button" data-testid="buy-credits" onClick={() => setOpen(true)}>
        {t('buy.open')}
      </button>
    );
  }
  return (
    <form class="buy" onSubmit={proceed} aria-labelledby="buy-title">
      <h3 id="buy-title">{t('buy.title')}</h3>
      <fieldset>
        <legend>{t('buy.amount')}</legend>
        <div class="buy-options">
          {presets.map((amount) => (
            <label class="inline" key={amount}>
              <input
                type="radio"
                name="buy-amount"
                data-testid={`buy-amount-${amount}`}
                checked={choice === amount}
                onChange={() => setChoice(amount)}
              />
              ${amount}
            </label>
          ))}
          <label class="inline">
            <input
              type="radio"
              name="buy-amount"
              data-testid="buy-amount-custom"
              checked={choice === 'custom'}
              onChange={() => setChoice('custom')}
            />
            {t('buy.other')}
          </label>
        </div>
        {choice === 'custom' && (
          <label>
            {t('buy.customLabel', { min: offer.min_usd, max: offer.max_usd })}
            <input
              type="number"
              id="buy-custom"
              inputMode="numeric"
              min={offer.min_usd}
              max={offer.max_usd}
              step={1}
              value={custom}
              onInput={(e) => setCustom((e.target as HTMLInputElement).value)}
              aria-invalid={custom.trim() !== '' && points === null}
            />
          </label>
        )}
      </fieldset>
      {points !== null ? (
        <p class="price" data-testid="buy-points" data-points={points}>
          {t('buy.adds', { usd: `$${usd}`, points: tn('unit.points', points), value: formatUsd(points) })}
        </p>
      ) : (
        choice === 'custom' &&
        custom.trim() !== '' && <p class="warning">{t('buy.outOfRange', { min: offer.min_usd, max: offer.max_usd })}</p>
      )}
      <p class="hint">{t('buy.stripe')}</p>
      <Problem error={error} />
      <div class="actions">
        <button type="submit" data-testid="buy-continue" disabled={points === null || busy}>
          {busy ? t('common.working') : t('buy.continue')}
        </button>
        <button type="button" class="secondary" onClick={() => setOpen(false)} disabled={busy}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
