import { ApiKeysView } from './api-keys-view';

export const metadata = { title: 'API keys · Switchboard' };

export default function ApiKeysPage() {
  return <ApiKeysView />;
}
