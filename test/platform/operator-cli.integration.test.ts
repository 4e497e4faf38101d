import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { apiSuite } from '../support/harness';
import { client } from '../support/helpers';

// The operator CLI as operators run it: a separate process on the same database. Run without
// blocking: the API server lives in this process, and a blocked event loop lets its keep-alive
// sockets lapse under the client's feet (ECONNRESET on the next request).
function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/cli/main.ts', ...args],
      { env: { ...process.env }, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() });
      },
    );
  });
}

const suite = apiSuite({ tenant: false });

// Each case spawns the CLI several times (a Node process with tsx each): minutes on a busy CI box.
describe('npm run cli', { timeout: 120_000 }, () => {
  it('creates a tenant with an admin and a working API key, printing one JSON line', async () => {
    const out = await cli(
      'tenant',
      'create',
      '--name',
      'Acme',
      '--admin-email',
      'Owner@Acme.test',
      '--admin-password',
      'a long password',
      '--json',
    );
    expect(out.code).toBe(0);
    const lines = out.stdout.split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]);
    expect(Object.keys(created).sort()).toEqual(['api_key', 'tenant_id', 'user_id']);
    expect(created.api_key).toMatch(/^sk_live_/);

    const api = client(suite.url, { tenantId: created.tenant_id, token: created.api_key });
    expect((await api('GET', '/bookings')).status).toBe(200);
    const login = await api('POST', '/auth/login', {
      token: null,
      body: { email: 'owner@acme.test', password: 'a long password' },
    });
    expect(login.body.user).toMatchObject({ id: created.user_id, role: 'admin' });

    const agentArgs = [
      'user',
      'create',
      '--tenant',
      created.tenant_id,
      '--email',
      'agent@acme.test',
      '--password',
      'agent password',
    ];
    const user = await cli(...agentArgs, '--role', 'agent', '--json');
    expect(user.code).toBe(0);
    const { user_id } = JSON.parse(user.stdout);
    const agentLogin = await api('POST', '/auth/login', {
      token: null,
      body: { email: 'agent@acme.test', password: 'agent password' },
    });
    expect(agentLogin.body.user).toMatchObject({ id: user_id, role: 'agent' });

    const again = await cli(...agentArgs, '--role', 'agent', '--json');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already a member');

    const taken = await cli(
      'tenant',
      'create',
      '--name',
      'Other',
      '--admin-email',
      'owner@acme.test',
      '--admin-password',
      'not their password',
      '--json',
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('already exists');
  });

  it('explains bad arguments with exit code 2', async () => {
    const bad = await cli(
      'user',
      'create',
      '--tenant',
      'nope',
      '--email',
      'x',
      '--password',
      'short',
      '--role',
      'boss',
      '--json',
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--tenant must be a tenant UUID');
    expect(bad.stderr).toContain('--email is not a valid email address');
    expect(bad.stderr).toContain('--password must be at least 8 characters');
    expect(bad.stderr).toContain('--role must be admin or agent');
    expect((await cli('frobnicate')).code).toBe(2);
    expect((await cli('tenant', 'create', '--name', 'x', '--unknown-flag')).code).toBe(2);
  });

  it('refuses a user for a tenant that does not exist', async () => {
    const out = await cli(
      'user',
      'create',
      '--tenant',
      '00000000-0000-4000-8000-000000000000',
      '--email',
      'a@b.test',
      '--password',
      'password1',
      '--role',
      'admin',
    );
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('No tenant');
  });
});
