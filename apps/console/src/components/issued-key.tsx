import { useState } from 'preact/hooks';
import type { IssuedKey } from '@docconv/client';
import { t } from '../i18n';

/** A new key's secret, shown this once, with a copy button and the warning that goes with it. */
export function IssuedKeySecret({ issued }: { issued: IssuedKey }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(issued.key).catch(() => undefined);
    setCopied(true);
  };
  return (
    <section class="issued-key" aria-labelledby="issued-key-title">
      <h3 id="issued-key-title">{t('keys.issuedTitle', { name: issued.name || issued.prefix })}</h3>
      <p class="warning" role="note">
        {t('keys.issuedWarning')}
      </p>
      <div class="secret-row">
        <label class="visually-hidden" for="issued-key-value">
          {t('keys.secret')}
        </label>
        <input
          id="issued-key-value"
          class="secret"
          readOnly
          value={issued.key}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={copy}>
          {copied ? t('keys.copied') : t('keys.copy')}
        </button>
      </div>
    </section>
  );
}
