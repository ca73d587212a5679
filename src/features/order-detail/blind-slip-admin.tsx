import type { OrderDetailAttributes } from '../../api/orders-detail.ts';
import { packingSlipLink } from '../../api/packing-slip.ts';

type Run = (label: string, call: () => Promise<unknown>, done: string) => Promise<boolean>;

/**
 * BLIND PACKING SLIP on the admin panel: the order ships with the studio's slip, not the lab's
 * (docs/lab-rules.md §9). It is in the zip as packing-slip.pdf; here it can be had alone.
 */
export function BlindSlipAdmin({ order, busy, run }: { order: OrderDetailAttributes; busy: string | null; run: Run }) {
  if (!order.blind_slip) return null;
  const download = async () => {
    // The link is signed for a few minutes: opened at once, it downloads the PDF.
    window.location.assign(await packingSlipLink(order.guid));
  };
  return (
    <div>
      <p>BLIND PACKING SLIP: pack the studio&apos;s slip (in the zip as packing-slip.pdf), nothing with the lab&apos;s name or prices.</p>
      <button type="button" className="button" disabled={busy !== null} onClick={() => void run('Making the packing slip', download, 'The packing slip is downloading.')}>
        DOWNLOAD PACKING SLIP
      </button>
    </div>
  );
}
