// A map layered over a read-only base: writes stay in the top layer, reads fall through to the base.
// An edit of a 10,000-page tree then costs its changes, not a copy of every map (copying one such Map
// takes ~2 ms, the whole budget of a small edit). Each revision adds a layer over the previous one;
// `overlay()` flattens a chain that got deep, so reads stay a few lookups and the copy is amortised.
const DELETED = Symbol('deleted');
const MAX_DEPTH = 16;

export class OverlayMap<K, V> implements ReadonlyMap<K, V> {
  private readonly own = new Map<K, V | typeof DELETED>();
  private count: number;
  readonly depth: number;

  constructor(private readonly base: ReadonlyMap<K, V>) {
    this.count = base.size;
    this.depth = base instanceof OverlayMap ? base.depth + 1 : 1;
  }

  get size(): number {
    return this.count;
  }

  get(key: K): V | undefined {
    if (this.own.has(key)) {
      const value = this.own.get(key)!;
      return value === DELETED ? undefined : value;
    }
    return this.base.get(key);
  }

  has(key: K): boolean {
    if (this.own.has(key)) return this.own.get(key) !== DELETED;
    return this.base.has(key);
  }

  set(key: K, value: V): this {
    if (!this.has(key)) this.count++;
    this.own.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    if (!this.has(key)) return false;
    this.count--;
    this.own.set(key, DELETED);
    return true;
  }

  /** A plain copy: the bottom map, then each layer's writes in order (linear, unlike nested lookups). */
  flatten(): Map<K, V> {
    const layers: OverlayMap<K, V>[] = [];
    // Walks down the chain of layers, starting with this one.
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the loop variable starts at this layer and moves to its bases
    let bottom: ReadonlyMap<K, V> = this;
    while (bottom instanceof OverlayMap) {
      layers.push(bottom);
      bottom = bottom.base;
    }
    const flat = new Map(bottom);
    for (const layer of layers.reverse()) {
      for (const [key, value] of layer.own) {
        if (value === DELETED) flat.delete(key);
        else flat.set(key, value);
      }
    }
    return flat;
  }

  *entries(): MapIterator<[K, V]> {
    if (this.depth > 1) {
      yield* this.flatten().entries();
      return;
    }
    for (const [key, value] of this.own) if (value !== DELETED) yield [key, value];
    for (const [key, value] of this.base) if (!this.own.has(key)) yield [key, value];
  }

  *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const [key, value] of this.entries()) callback(value, key, this);
  }
}

/** A writable layer over `base`, flattening `base` first when its chain of layers is deep. */
export function overlay<K, V>(base: ReadonlyMap<K, V>): OverlayMap<K, V> {
  const flat = base instanceof OverlayMap && base.depth >= MAX_DEPTH ? base.flatten() : base;
  return new OverlayMap(flat);
}

/** `map` as one plain map when it is a chain of layers (for code about to do many lookups in it). */
export function flat<K, V>(map: ReadonlyMap<K, V>): ReadonlyMap<K, V> {
  return map instanceof OverlayMap && map.depth > 1 ? map.flatten() : map;
}
