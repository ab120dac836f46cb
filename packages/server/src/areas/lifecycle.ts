// The lifecycle steps of every area, collected once from the area descriptors: what a transfer, a
// purge and a duplicate run, in the areas' order. Handed to services through the app context, so a
// service never imports the registry (no import cycle through the areas).
import type { Area, DuplicateStep, PurgeStep, TransferStep } from './area.js';

export type Lifecycle = {
  transfer: readonly TransferStep[];
  purge: readonly PurgeStep[];
  duplicate: readonly DuplicateStep[];
};

export function collectLifecycle(areas: readonly Area[]): Lifecycle {
  const steps = <S>(pick: (area: Area) => readonly S[] | 'none') => areas.flatMap((area) => (pick(area) === 'none' ? [] : [...(pick(area) as readonly S[])]));
  return {
    transfer: steps((area) => area.transfer),
    purge: steps((area) => area.purge),
    duplicate: steps((area) => area.duplicate),
  };
}
