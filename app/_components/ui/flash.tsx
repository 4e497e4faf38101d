'use client';
/**
 * A view's feedback area: the last action's success (announced politely, gone after 5 s) or its
 * error (an alert, kept until the next action). `useAction` writes to it; the view places `node`.
 */
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { ErrorNotice, Notice } from './notice';

export interface Feedback {
  /** Where the messages render; the status region stays mounted so screen readers announce it. */
  node: ReactNode;
  success: (message: string) => void;
  error: (error: unknown) => void;
  clear: () => void;
}

export function useFeedback({ className }: { className?: string } = {}): Feedback {
  const [message, setMessage] = useState<{ text: string; at: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), 5000);
    return () => clearTimeout(timer);
  }, [message]);

  const success = useCallback((text: string) => {
    setError(null);
    setMessage({ text, at: Date.now() });
  }, []);
  const fail = useCallback((e: unknown) => {
    setMessage(null);
    setError(e);
  }, []);
  const clear = useCallback(() => {
    setMessage(null);
    setError(null);
  }, []);

  const node = (
    <div className={className}>
      <Notice tone="success" role="status" aria-live="polite" hidden={!message} className="mb-3">
        {message?.text}
      </Notice>
      <ErrorNotice error={error} className="mb-3" />
    </div>
  );
  return { node, success, error: fail, clear };
}
