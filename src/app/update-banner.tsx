import { applyUpdate, useAppUpdate } from './app-update.ts';

/** Offers a new version of the app; nothing unsent is lost by taking it. */
export function UpdateBanner() {
  const available = useAppUpdate((s) => s.available);
  if (!available) return null;
  return (
    <div className="update-banner" role="status">
      <span>A new version of the app is ready. Your unsent changes and uploads are kept.</span>
      <button type="button" className="button primary" onClick={() => void applyUpdate()}>
        UPDATE NOW
      </button>
    </div>
  );
}
