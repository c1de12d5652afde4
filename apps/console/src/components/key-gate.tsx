import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { IssuedKey } from '@docconv/client';
import { t } from '../i18n';
import { setConsoleKey, useSession } from '../session';
import { CreateKeyForm } from './create-key';
import { IssuedKeySecret } from './issued-key';

/**
 * Job pages need an API key (the API takes no session token there). Without one in this tab,
 * offer to create one or to paste an existing one; otherwise show the page.
 */
export function KeyGate({ children }: { children: ComponentChildren }) {
  const session = useSession();
  const [issued, setIssued] = useState<IssuedKey>();
  const [pasted, setPasted] = useState('');
  if (session?.apiKey) {
    return (
      <>
        {issued && <IssuedKeySecret issued={issued} />}
        {children}
      </>
    );
  }
  const usePasted = (event: Event) => {
    event.preventDefault();
    const key = pasted.trim();
    if (key) setConsoleKey(key);
  };
  return (
    <div class="key-gate">
      <p class="lead">{t('gate.explain')}</p>
      <CreateKeyForm onCreated={setIssued} />
      <form class="card" onSubmit={usePasted} aria-labelledby="paste-key-title">
        <h2 id="paste-key-title">{t('gate.pasteTitle')}</h2>
        <label for="paste-key">{t('gate.pasteLabel')}</label>
        <input
          id="paste-key"
          type="password"
          autoComplete="off"
          value={pasted}
          onInput={(e) => setPasted(e.currentTarget.value)}
        />
        <button type="submit" class="secondary" disabled={pasted.trim() === ''}>
          {t('gate.pasteButton')}
        </button>
      </form>
    </div>
  );
}
