import { useState } from 'react';
import { useNavigate } from '../../ui/router.tsx';
import { errorLines } from '../../api/errors.ts';
import { addToCartStep } from '../../domain/add-to-cart.ts';
import { finishingChoice } from '../../domain/builder-gating.ts';
import type { Selections } from '../../domain/builder-selections.ts';
import type { FinishingGroup, Paper } from '../../contract/catalogue.ts';
import { chunk } from '../../domain/collections.ts';
import { selectionPayloads, type LineItemPayload } from '../../domain/line-item-payload.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { worstResolution } from '../../domain/print-resolution.ts';
import type { PhotoEntry } from '../../offline/db.ts';
import { newId } from '../../client-rules/ids.ts';
import { nextTask } from '../../offline/next-task.ts';
import { addLineItems, updateLineItem } from '../../offline/order-store.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import type { PhotoCropInfo } from './crop-area.tsx';

interface Answers {
  cropCheckAnswered: boolean;
  lowResolutionAccepted: boolean;
}
// Photos whose crops and payloads are built per task at ADD TO CART: a quarter of the bench's 1,000
// stays a short task even on a phone several times slower (measured: docs/performance.md, "builder 1,000").
const PAYLOAD_SLICE = 250;

export type Question = { kind: 'crop'; answers: Answers } | { kind: 'resolution'; message: string; answers: Answers };

/**
 * ADD TO CART / UPDATE (docs/orders.md §5): the domain's steps (alert, first-add crop check, the
 * low-resolution confirmation, add) in order; the line items are written to the device store,
 * which sends them; then the review.
 */
export function useAddToCart(input: {
  orderGuid: string;
  s: Selections;
  paper: Paper | null;
  groups: readonly FinishingGroup[] | null;
  lineItemCount: number;
  /** The line item being edited, or null in the builder. */
  editing: string | null;
  photos: readonly PhotoEntry[];
  infoOf: (p: PhotoEntry) => PhotoCropInfo | null;
  onAdded: () => void;
}) {
  const navigate = useNavigate();
  const [question, setQuestion] = useState<Question | null>(null);
  const [adding, setAdding] = useState(false);

  const selected = (): PhotoEntry[] => {
    const byId = new Map(input.photos.map((p) => [p.id, p]));
    return input.s.photos.flatMap((g) => byId.get(g) ?? []);
  };

  async function commit() {
    setAdding(true);
    try {
      const byId = new Map(selected().map((p) => [p.id, p]));
      const photos = [...byId.values()].map((p) => ({ guid: p.id, photo_file_name: p.name }));
      const finishing = finishingChoice(input.s, input.groups);
      const cropOf = (guid: string) => {
        const photo = byId.get(guid);
        const info = photo ? input.infoOf(photo) : null;
        return { crop: info?.crop ?? { x: 0, y: 0, width: 100, height: 100 }, aspect: info?.options.aspect ?? null };
      };
      // A slice of the selection per task, so the click's task does not also build 1,000 crops and
      // payloads. The selections are this render's (the button shows ADDING... meanwhile), and
      // nothing is written until all are built.
      const payloads: LineItemPayload[] = [];
      for (const [i, slice] of chunk(input.s.photos, PAYLOAD_SLICE).entries()) {
        if (i > 0) await nextTask();
        // An edit keeps the line item's guid: the store updates that row.
        payloads.push(...selectionPayloads({ selections: { ...input.s, photos: slice }, photos, finishing, cropOf, newGuid: () => input.editing ?? newId() }));
      }
      const [only] = payloads;
      if (input.editing && only) await updateLineItem(input.orderGuid, only);
      else await addLineItems(input.orderGuid, payloads, new Map(photos.map((p) => [p.guid, byId.get(p.guid)?.smallestPhotoUrl ?? ''])));
      input.onAdded();
      void navigate(routePath(ROUTES.cartReview, { id: input.orderGuid }));
    } catch (err) {
      setAdding(false);
      toast.error(errorLines(err));
    }
  }

  function attempt(answers: Answers) {
    setQuestion(null);
    const step = addToCartStep({
      selections: input.s,
      paper: input.paper,
      groups: input.groups,
      lineItemCount: input.lineItemCount,
      editing: input.editing !== null,
      ...answers,
      resolution: worstResolution(selected().map((p) => input.infoOf(p)?.resolution ?? null)),
    });
    if (step.kind === 'alert') window.alert(step.message);
    else if (step.kind === 'confirmCrop') setQuestion({ kind: 'crop', answers });
    else if (step.kind === 'confirmResolution') setQuestion({ kind: 'resolution', message: step.message, answers });
    else void commit();
  }

  return {
    adding,
    question,
    press: () => attempt({ cropCheckAnswered: false, lowResolutionAccepted: false }),
    /** Looks Good / ADD ANYWAY: ask the next step with this answer given. */
    answer: (q: Question) => attempt(q.kind === 'crop' ? { ...q.answers, cropCheckAnswered: true } : { ...q.answers, lowResolutionAccepted: true }),
    dismiss: () => setQuestion(null),
  };
}
