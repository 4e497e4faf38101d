import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { AuditLogView } from './audit-log-view';

export const metadata = { title: 'Audit log · Switchboard' };

export default function AuditLogPage() {
  return (
    <PermissionGate permission="audit_log.read">
      <AuditLogView />
    </PermissionGate>
  );
}
