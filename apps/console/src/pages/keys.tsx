import { useState } from 'preact/hooks';
import { unwrap, type IssuedKey } from '@docconv/client';
import { accountClient } from '../api';
import { CreateKeyForm } from '../components/create-key';
import { IssuedKeySecret } from '../components/issued-key';
import { Problem } from '../components/problem';
import { count, dateTime } from '../format';
import { t } from '../i18n';
import type { Session } from '../session';
import { useAsync } from '../use-async';
import { DataTable } from '../components/data-table';

export function KeysPage({ session }: { session: Session }) {
  const client = accountClient(session);
  const keys = useAsync(() => unwrap(client.api.GET('/api/v1/keys')), [client]);
  const [issued, setIssued] = useState<IssuedKey>();
  const [confirming, setConfirming] = useState<string>();
  const [error, setError] = useState<unknown>();

  const act = async (keyId: string, kind: 'rotate' | 'deactivate') => {
    setConfirming(undefined);
    setError(undefined);
    try {
      const path = { path: { key_id: keyId } };
      if (kind === 'rotate') {
        setIssued(await unwrap(client.api.POST('/api/v1/keys/{key_id}/rotate', { params: path })));
      } else {
        await unwrap(client.api.DELETE('/api/v1/keys/{key_id}', { params: path }));
      }
      keys.reload();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <div>
      <p class="lead">{t('keys.explain')}</p>
      {issued && <IssuedKeySecret issued={issued} />}
      <CreateKeyForm
        onCreated={(key) => {
          setIssued(key);
          keys.reload();
        }}
      />
      <h2>{t('keys.yours')}</h2>
      <Problem error={keys.error ?? error} />
      {keys.data && keys.data.length === 0 && <p>{t('keys.none')}</p>}
      {keys.data && keys.data.length > 0 && (
        <DataTable
          label={t('keys.yours')}
          columns={[
            t('keys.name'),
            t('keys.prefix'),
            t('keys.scopes'),
            t('keys.rate'),
            t('keys.state'),
            t('jobs.created'),
            { hidden: t('keys.actions') },
          ]}
        >
          {keys.data.map((key) => (
            <tr key={key.id}>
              <td>{key.name || '—'}</td>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{key.scopes.join(', ')}</td>
              <td>{t('keys.perMinute', { n: count(key.rate_limit_rpm) })}</td>
              <td>
                <span class={`badge ${key.is_active ? 'badge-done' : 'badge-cancelled'}`}>
                  {key.is_active ? t('keys.active') : t('keys.inactive')}
                </span>
              </td>
              <td>{dateTime(key.created_at)}</td>
              <td>
                <div class="actions">
                  {key.is_active &&
                    (confirming === key.id ? (
                      <>
                        <span>{t('keys.sure')}</span>
                        <button type="button" onClick={() => act(key.id, 'rotate')}>
                          {t('keys.rotate')}
                        </button>
                        <button type="button" class="danger" onClick={() => act(key.id, 'deactivate')}>
                          {t('keys.deactivate')}
                        </button>
                        <button type="button" class="secondary" onClick={() => setConfirming(undefined)}>
                          {t('common.cancel')}
                        </button>
                      </>
                    ) : (
                      <button
                        type="button"
                        class="secondary"
                        aria-label={t('keys.manage', { name: key.name || key.prefix })}
                        onClick={() => setConfirming(key.id)}
                      >
                        {t('keys.rotateOrDeactivate')}
                      </button>
                    ))}
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
