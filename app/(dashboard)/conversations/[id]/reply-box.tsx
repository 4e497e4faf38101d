'use client';
import { type FormEvent, type KeyboardEvent, useEffect, useState } from 'react';
import { formatTime } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import { Button, type Feedback, Field, Input, Notice, Textarea } from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';
import { LIMITS } from '@/server/client-safe/limits';

interface Conversation {
  id: string;
  channel: string;
  window_expires_at: string | null;
}

/** Re-renders every `ms`, so "time left" stays true while the screen is open. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

export function timeLeft(until: number, now: number): string {
  const minutes = Math.max(0, Math.ceil((until - now) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/**
 * The agent's reply. Inside WhatsApp's 24-hour window (or on other channels) it is a text box;
 * once the window is closed WhatsApp accepts only an approved template, so it becomes the
 * template form. Ctrl+Enter (⌘+Enter) sends.
 */
export function ReplyBox({ conversation, feedback }: { conversation: Conversation; feedback: Feedback }) {
  const trpc = useTRPC();
  const now = useNow(30_000);
  const [text, setText] = useState('');
  const [template, setTemplate] = useState({ name: '', language: 'en_US', parameters: '' });
  const send = useAction(trpc.conversations.sendConversationMessage.mutationOptions(), {
    feedback,
    invalidate: [trpc.conversations.pathKey()],
    onSuccess: (message) => {
      if (message.status === 'failed') feedback.error(new Error(`Not sent: ${message.failure_reason}`));
      if (message.type === 'template') setTemplate((t) => ({ ...t, parameters: '' }));
      else setText('');
    },
  });
  const closesAt = conversation.window_expires_at ? new Date(conversation.window_expires_at).getTime() : null;
  const whatsapp = conversation.channel === 'whatsapp';
  const open = !whatsapp || (closesAt !== null && closesAt > now);

  const sendText = (event?: FormEvent) => {
    event?.preventDefault();
    if (!text.trim() || send.isPending) return;
    send.mutate({ id: conversation.id, text });
  };
  const sendTemplate = (event: FormEvent) => {
    event.preventDefault();
    const parameters = template.parameters
      .split('\n')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((value) => ({ type: 'text', text: value }));
    send.mutate({
      id: conversation.id,
      template: {
        name: template.name.trim(),
        language: template.language.trim(),
        ...(parameters.length ? { components: [{ type: 'body', parameters }] } : {}),
      },
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) sendText();
  };

  if (open)
    return (
      <form onSubmit={sendText} className="flex flex-col gap-2" aria-label="Reply to the customer">
        <Field
          label="Reply"
          hint={
            whatsapp && closesAt
              ? `WhatsApp window: ${timeLeft(closesAt, now)} left (closes ${formatTime(conversation.window_expires_at)}). Ctrl+Enter sends.`
              : 'Ctrl+Enter sends.'
          }
        >
          <Textarea
            rows={3}
            value={text}
            maxLength={LIMITS.messageText}
            autoFocus
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
          />
        </Field>
        <div>
          <Button type="submit" disabled={!text.trim() || send.isPending} aria-keyshortcuts="Control+Enter">
            {send.isPending ? 'Sending…' : 'Send'}
          </Button>
        </div>
      </form>
    );

  return (
    <form onSubmit={sendTemplate} className="flex flex-col gap-3" aria-label="Send a template">
      <Notice tone="warn" role="status">
        {closesAt
          ? `The 24-hour window closed ${formatTime(conversation.window_expires_at)}.`
          : 'The customer has not written yet.'}{' '}
        WhatsApp only delivers an approved template until the customer writes again.
      </Notice>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Template name" hint="As approved in Meta's WhatsApp Manager, e.g. booking_reminder">
          <Input
            value={template.name}
            required
            autoFocus
            pattern="[a-z0-9_]+"
            onChange={(e) => setTemplate({ ...template, name: e.target.value })}
          />
        </Field>
        <Field label="Language" hint="The template's language code, e.g. en_US">
          <Input
            value={template.language}
            required
            onChange={(e) => setTemplate({ ...template, language: e.target.value })}
          />
        </Field>
      </div>
      <Field label="Body parameters" hint="One per line, in the order of {{1}}, {{2}}, …">
        <Textarea
          rows={2}
          value={template.parameters}
          onChange={(e) => setTemplate({ ...template, parameters: e.target.value })}
        />
      </Field>
      <div>
        <Button type="submit" disabled={!template.name.trim() || send.isPending}>
          {send.isPending ? 'Sending…' : 'Send template'}
        </Button>
      </div>
    </form>
  );
}
