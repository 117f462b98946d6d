import { AppError, type AppErrorOptions } from "@/lib/errors";

export type InventoryErrorKind = "invalid" | "not-found" | "conflict";

/**
 * What the inventory functions throw when the input or the database state says no
 * (400/404/409). Messages never contain secrets: they are written here, not copied from input.
 */
export class InventoryError extends AppError {
  static override readonly errorName: string = "InventoryError";
  declare readonly kind: InventoryErrorKind;

  constructor(kind: InventoryErrorKind, message: string, options?: AppErrorOptions) {
    super(kind, message, options);
  }
}
