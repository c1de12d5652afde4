import { useState } from 'preact/hooks';
import { createKey, type IssuedKey, type Scope } from '@docconv/client';
import { accountClient } from '../api';
import { t } from '../i18n';
import { getSession } from '../session';
import { Problem } from './problem';

/** Creates an API key with the session token, for the user's programs (the console needs none). */
export function CreateKeyForm({ onCreated }: { onCreated: (issued: IssuedKey) => void }) {
  const [name, setName] = useState(t('keys.defaultName'));
  const [read, setRead] = useState(true);
  const [write, setWrite] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const session = getSession();
    if (!session) return;
    const scopes: Scope[] = [...(read ? (['jobs:read'] as const) : []), ...(write ? (['jobs:write'] as const) : [])];
    setBusy(true);
    setError(undefined);
    try {
      const issued = await createKey(accountClient(session), session.token, { name: name.trim(), scopes });
      onCreated(issued);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="create-key-title">
      <h2 id="create-key-title">{t('keys.create')}</h2>
      <label for="key-name">{t('keys.name')}</label>
      <input id="key-name" value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
      <fieldset>
        <legend>{t('keys.scopes')}</legend>
        <label class="inline">
          <input type="checkbox" checked={read} onChange={(e) => setRead(e.currentTarget.checked)} /> jobs:read
        </label>
        <label class="inline">
          <input type="checkbox" checked={write} onChange={(e) => setWrite(e.currentTarget.checked)} /> jobs:write
        </label>
      </fieldset>
      <Problem error={error} />
      <button type="submit" disabled={busy || (!read && !write)}>
        {busy ? t('common.working') : t('keys.createButton')}
      </button>
    </form>
  );
}
