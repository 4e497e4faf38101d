/** The centred card of the signed-out pages (sign-in, tenant choice), with the app's mark. */
import type { ReactNode } from 'react';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="grid min-h-dvh place-items-center p-4">
      <div className="w-full max-w-sm rounded-dialog border border-border bg-panel p-6 shadow-[0_6px_24px_rgba(20,30,50,0.06)] sm:p-8">
        {/* biome-ignore lint/performance/noImgElement: a static SVG needs no image optimisation */}
        <img src="/icon.svg" alt="" width={40} height={40} className="mb-4" />
        <h1 className="mb-4 text-2xl font-semibold tracking-tight">{title}</h1>
        {children}
      </div>
    </main>
  );
}
