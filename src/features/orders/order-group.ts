import type { ReactNode } from 'react';
import type { LabOrderListAttributes } from '../../api/lab-orders.ts';

// The plain list (order-groups.tsx) and the windowed one it loads lazily (virtual-groups.tsx) both
// draw these; their own module, so neither list imports the other for a type.
export type RenderCard = (order: LabOrderListAttributes) => ReactNode;
export type Group = { heading: string; orders: LabOrderListAttributes[] };
