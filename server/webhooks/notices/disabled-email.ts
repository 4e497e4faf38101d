// The e-mail the tenant's admins get when the service disables one of their endpoints. Sent only
// when SMTP_URL names a mail transport; without one nothing is sent (the dashboard shows the banner).
import nodemailer from 'nodemailer';
import { publicBaseUrl } from '@/server/config/public-url';
import { settings } from '@/server/config/settings';
import type { OperationContext } from '@/server/domain/context';
import type { EndpointResource } from '@/server/webhooks/serialize';

/** Sends the notice to every admin of the tenant; resolves to how many were addressed (0: no transport). */
export async function sendDisabledNotice(ctx: OperationContext, endpoint: EndpointResource): Promise<number> {
  const config = settings();
  if (!config.SMTP_URL) return 0;
  const admins = await ctx.db.membership.findMany({
    where: { role: 'admin' },
    select: { user: { select: { email: true } } },
  });
  if (admins.length === 0) return 0;
  const tenant = await ctx.db.tenant.findUnique({ where: { id: ctx.tenantId }, select: { name: true } });
  const dashboard = new URL(`/settings/webhooks/${encodeURIComponent(endpoint.id)}`, publicBaseUrl());
  const transport = nodemailer.createTransport(config.SMTP_URL);
  try {
    await transport.sendMail({
      from: config.SMTP_FROM,
      to: admins.map((a) => a.user.email),
      subject: `Webhook endpoint disabled: ${endpoint.url}`,
      text: [
        `Switchboard disabled a webhook endpoint of ${tenant?.name ?? 'your workspace'} because its last ` +
          `${config.WEBHOOK_DISABLE_AFTER_FAILURES} delivery attempts in a row failed.`,
        '',
        `Endpoint: ${endpoint.url} (${endpoint.id})`,
        `Disabled at: ${endpoint.disabled_at}`,
        '',
        'Its pending deliveries were marked failed. Once the receiver works again, re-enable the endpoint ' +
          'and recover the failed deliveries from the dashboard:',
        dashboard.toString(),
      ].join('\n'),
    });
  } finally {
    transport.close();
  }
  return admins.length;
}
