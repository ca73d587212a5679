/**
 * SAVE CARD FOR FUTURE USE is ticked on checkout details and sent with PLACE ORDER on checkout
 * final: the tab keeps the choice per order in between (a reload or EDIT keeps it; another tab
 * or a later visit starts unticked, the safe default for a card typed once).
 */
const key = (orderGuid: string) => `checkout-save-card:${orderGuid}`;

export function readSaveCard(orderGuid: string): boolean {
  try {
    return sessionStorage.getItem(key(orderGuid)) === 'yes';
  } catch {
    return false;
  }
}

export function writeSaveCard(orderGuid: string, save: boolean): void {
  try {
    if (save) sessionStorage.setItem(key(orderGuid), 'yes');
    else sessionStorage.removeItem(key(orderGuid));
  } catch {
    // Storage refused (private mode quota): the box then only holds for this screen.
  }
}
