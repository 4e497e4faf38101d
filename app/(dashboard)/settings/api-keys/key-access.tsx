'use client';
/**
 * What an API key may do: choosing it when the key is created (a preset of
 * server/client-safe/permissions.ts, or a chosen set), and showing it in the list.
 */
import { Badge, Checkbox, Code, Radio, RadioGroup } from '@/app/_components/ui';
import { useViewer } from '@/app/_components/viewer';
import {
  ALL_PERMISSIONS,
  KEY_PRESETS,
  type KeyPreset,
  type Permission,
} from '@/server/client-safe/permissions';

export type Access = KeyPreset | 'custom';

const NAMES: Record<string, string> = {
  api_keys: 'API keys',
  audit_log: 'Audit log',
  event_types: 'Event types',
  payment_providers: 'Payment providers',
};
/** `payment_providers` → "Payment providers" (and the few names above). */
const resourceName = (resource: string) =>
  NAMES[resource] ?? resource[0].toUpperCase() + resource.slice(1).replaceAll('_', ' ');

/** The permission table by resource, in its order: bookings → [read, write], … */
function byResource(permissions: readonly Permission[]) {
  const groups = new Map<string, Permission[]>();
  for (const permission of permissions) {
    const [resource] = permission.split('.');
    groups.set(resource, [...(groups.get(resource) ?? []), permission]);
  }
  return [...groups];
}

/** The preset a set of permissions is exactly, if any. */
export function presetOf(permissions: readonly string[]): KeyPreset | null {
  const key = (list: readonly string[]) => [...list].sort().join();
  const same = (preset: readonly string[]) => key(preset) === key(permissions);
  return (Object.keys(KEY_PRESETS) as KeyPreset[]).find((k) => same(KEY_PRESETS[k].permissions)) ?? null;
}

/** The permissions a new key gets: a preset's, or the chosen ones (undefined: a full key, none sent). */
export function permissionsFor(access: Access, chosen: Permission[]): Permission[] | undefined {
  if (access === 'full') return undefined;
  return access === 'custom' ? chosen : [...KEY_PRESETS[access].permissions];
}

export function AccessPicker({
  access,
  onAccess,
  chosen,
  onChosen,
}: {
  access: Access;
  onAccess: (access: Access) => void;
  chosen: Permission[];
  onChosen: (chosen: Permission[]) => void;
}) {
  const { can } = useViewer();
  // A key can hold only what its creator holds (the server refuses the rest with 403).
  const grantable = ALL_PERMISSIONS.filter((p) => can(p));
  const options: { value: Access; label: string; hint: string }[] = [
    ...(Object.keys(KEY_PRESETS) as KeyPreset[]).map((value) => ({
      value,
      label: KEY_PRESETS[value].label,
      hint: KEY_PRESETS[value].description,
    })),
    { value: 'custom', label: 'Chosen permissions', hint: 'Only the permissions you tick below.' },
  ];
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <RadioGroup legend="Access">
        {options.map((option) => (
          <Radio
            key={option.value}
            name="access"
            value={option.value}
            label={option.label}
            hint={option.hint}
            checked={access === option.value}
            onChange={() => onAccess(option.value)}
          />
        ))}
      </RadioGroup>
      {access === 'custom' && (
        <fieldset className="min-w-0">
          <legend className="mb-1 text-sm font-semibold">Permissions</legend>
          <div className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,8.5rem),1fr))] gap-x-3 gap-y-2 rounded-control border border-border p-3">
            {byResource(grantable).map(([resource, permissions]) => (
              <fieldset key={resource} className="min-w-0">
                <legend className="text-sm font-semibold">{resourceName(resource)}</legend>
                <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                  {permissions.map((permission) => (
                    <Checkbox
                      key={permission}
                      name="permissions"
                      value={permission}
                      title={permission}
                      label={permission.split('.')[1]}
                      checked={chosen.includes(permission)}
                      onChange={(e) =>
                        onChosen(
                          e.target.checked ? [...chosen, permission] : chosen.filter((p) => p !== permission),
                        )
                      }
                    />
                  ))}
                </div>
              </fieldset>
            ))}
          </div>
        </fieldset>
      )}
    </div>
  );
}

/** A key's access in the list: its preset's name (or how many it holds), opening onto each permission. */
export function KeyAccess({ permissions }: { permissions: readonly string[] }) {
  const preset = presetOf(permissions);
  const count = `${permissions.length} permission${permissions.length === 1 ? '' : 's'}`;
  return (
    <details className="mt-1 max-w-[16rem]">
      <summary className="cursor-pointer text-sm">
        {preset ? (
          <>
            <Badge tone={preset === 'full' ? 'warn' : 'info'}>{KEY_PRESETS[preset].label}</Badge>{' '}
            <span className="text-muted">{count}</span>
          </>
        ) : (
          <Badge tone="neutral">{count}</Badge>
        )}
      </summary>
      <ul className="mt-1.5 flex flex-wrap gap-1" aria-label="Permissions">
        {permissions.map((p) => (
          <li key={p}>
            <Code className="text-xs">{p}</Code>
          </li>
        ))}
      </ul>
    </details>
  );
}
