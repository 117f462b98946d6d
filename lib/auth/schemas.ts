import { z } from "zod";
import { ROLES } from "./roles";

// Account input. Messages name the field and say what is allowed (the inventory's style).

export const UsernameSchema = z
  .string({ error: "must be text" })
  .trim()
  .min(1, "is required")
  .max(64, "must be at most 64 characters")
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    "may contain letters, digits, '.', '_' and '-', and must start with a letter or digit",
  );

/** bcrypt reads at most 72 bytes: longer passwords are refused rather than cut silently. */
export const PasswordSchema = z
  .string({ error: "must be text" })
  .min(10, "must be at least 10 characters")
  .refine((value) => new TextEncoder().encode(value).length <= 72, "must be at most 72 bytes (bcrypt's limit)");

export const RoleSchema = z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` });

export const LoginSchema = z.object({
  username: z.string({ error: "must be text" }).trim().min(1, "is required").max(64, "must be at most 64 characters"),
  password: z.string({ error: "must be text" }).min(1, "is required").max(1024, "is too long"),
});

export const NewUserSchema = z.strictObject({ username: UsernameSchema, password: PasswordSchema, role: RoleSchema });

export const UserUpdateSchema = z.strictObject({
  role: RoleSchema.optional(),
  password: PasswordSchema.optional(),
  disabled: z.boolean({ error: "must be true or false" }).optional(),
});

export const TokenNameSchema = z
  .string({ error: "must be text" })
  .trim()
  .min(1, "is required: say what the token is for")
  .max(80, "must be at most 80 characters")
  .regex(/^[^\p{Cc}]*$/u, "must not contain control characters");

export function usernameKey(username: string): string {
  return username.trim().toLowerCase();
}
