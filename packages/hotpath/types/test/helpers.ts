// Exact type equality: `expectTypeOf(x).toBe<T>()` compiles only when the
// type of x is T itself (not merely assignable to it), so a type that widens
// to `any` or `unknown` fails the test.
export type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false

export function expectTypeOf<T>(_value: T) {
  return {
    toBe<U>(..._proof: Equal<T, U> extends true ? [] : [never]): void {}
  }
}

// The helper itself must be able to fail.
declare const anyValue: any
declare const wide: string | number
// @ts-expect-error any is not string
expectTypeOf(anyValue).toBe<string>()
// @ts-expect-error string | number is not string
expectTypeOf(wide).toBe<string>()
expectTypeOf(wide).toBe<number | string>()
