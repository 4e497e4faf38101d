'use client';
/** Copies a value to the clipboard and says so on the button until the value changes. */
import { useEffect, useState } from 'react';
import { Button, type ButtonProps } from './button';

export function CopyButton({
  value,
  label = 'Copy',
  copiedLabel = 'Copied',
  ...props
}: { value: string; label?: string; copiedLabel?: string } & Omit<ButtonProps, 'onClick' | 'children'>) {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new value starts uncopied
  useEffect(() => {
    setCopied(false);
    setFailed(false);
  }, [value]);
  return (
    <Button
      {...props}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
        } catch {
          // Clipboard access can be refused (permissions, insecure origin): the value stays selectable.
          setFailed(true);
        }
      }}
    >
      {copied ? copiedLabel : failed ? 'Copy failed: select the text' : label}
    </Button>
  );
}
