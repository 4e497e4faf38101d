// How a message's media file goes out, the same from the REST route and the dashboard's: the file's
// own type, `inline` only for images, audio and video (anything else downloads), and a sandboxing
// policy so a file can never act as a page of ours.
import type { MediaFile } from '@/server/domain/conversations/open-message-media';

export function mediaHeaders(file: MediaFile): Record<string, string> {
  const name = file.filename ? `; filename*=UTF-8''${encodeURIComponent(file.filename)}` : '';
  return {
    'Content-Type': file.mimeType,
    'Content-Disposition': `${file.inline ? 'inline' : 'attachment'}${name}`,
    'Content-Security-Policy': "sandbox; default-src 'none'",
    'Cache-Control': 'private, max-age=300',
    ...(file.size !== null ? { 'Content-Length': String(file.size) } : {}),
  };
}
