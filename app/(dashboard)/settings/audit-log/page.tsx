import { AuditLogView } from './audit-log-view';

export const metadata = { title: 'Audit log · Switchboard' };

export default function AuditLogPage() {
  return <AuditLogView />;
}
