import "server-only";
import { AccountError } from "./errors";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { AppError, parseInput } from "@/lib/errors";
import { isUniqueViolation } from "@/lib/db-errors";
import { recordAudit } from "./audit";
import { SOURCE_NAMES, type ExternalSource } from "./external";
import { hashPassword } from "./password";
import type { Principal } from "./principal";
import { isRole, type Role } from "./roles";
import { NewUserSchema, UserUpdateSchema, usernameKey } from "./schemas";

export type UserView = {
  id: number;
  username: string;
  role: Role;
  /** How the user signs in: local (a password), oidc (the identity provider) or proxy (a trusted proxy's header). */
  source: "local" | ExternalSource;
  disabled: boolean;
  lastLoginAt: string | null;
  createdAt: string;
};

// passwordHash is never selected here: nothing outside sign-in reads it.
const select = {
  id: true,
  username: true,
  role: true,
  source: true,
  disabledAt: true,
  lastLoginAt: true,
  createdAt: true,
} as const satisfies Prisma.UserSelect;

type Row = Prisma.UserGetPayload<{ select: typeof select }>;

function view(row: Row): UserView {
  return {
    id: row.id,
    username: row.username,
    role: isRole(row.role) ? row.role : "viewer",
    source: row.source === "oidc" || row.source === "proxy" ? row.source : "local",
    disabled: row.disabledAt !== null,
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function countUsers(): Promise<number> {
  return db.user.count();
}

export async function listUsers(): Promise<UserView[]> {
  return (await db.user.findMany({ orderBy: { usernameKey: "asc" }, select })).map(view);
}

export async function createUser(input: unknown): Promise<UserView> {
  const data = parseInput(NewUserSchema, input);
  const passwordHash = await hashPassword(data.password);
  try {
    const row = await db.user.create({
      data: { username: data.username, usernameKey: usernameKey(data.username), passwordHash, role: data.role },
      select,
    });
    await recordAudit("user.create", "user", row.id, `${row.username} as ${row.role}`);
    return view(row);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AccountError("conflict", `A user named ${data.username} already exists.`, {
        fields: [{ field: "username", message: "is taken" }],
      });
    }
    throw error;
  }
}

/**
 * The first account, made by the first visitor (or from WIRESPEED_ADMIN_PASSWORD): an
 * admin, and only while there is no user at all, checked in the same transaction.
 */
export async function createFirstAdmin(input: unknown): Promise<UserView> {
  const data = parseInput(NewUserSchema, { ...(typeof input === "object" && input ? input : {}), role: "admin" });
  const passwordHash = await hashPassword(data.password);
  const row = await db.$transaction(async (tx) => {
    if ((await tx.user.count()) > 0) {
      throw new AccountError("conflict", "An administrator already exists: sign in instead.");
    }
    return tx.user.create({
      data: { username: data.username, usernameKey: usernameKey(data.username), passwordHash, role: "admin" },
      select,
    });
  });
  await recordAudit("user.setup", "user", row.id, `${row.username} created as the first admin`, {
    userId: row.id,
    name: row.username,
    role: "admin",
    via: "session",
  });
  return view(row);
}

/** With WIRESPEED_ADMIN_PASSWORD set and no user yet, creates the admin (WIRESPEED_ADMIN_USER, default "admin"). */
export async function seedAdminFromEnv(
  env: Record<string, string | undefined> = process.env,
): Promise<UserView | null> {
  const password = env.WIRESPEED_ADMIN_PASSWORD;
  if (!password || (await countUsers()) > 0) return null;
  try {
    return await createFirstAdmin({ username: env.WIRESPEED_ADMIN_USER || "admin", password });
  } catch (error) {
    if (error instanceof AppError && error.kind === "invalid") {
      // Name the variable, never its value.
      throw new Error(`WIRESPEED_ADMIN_PASSWORD / WIRESPEED_ADMIN_USER: ${error.message}`);
    }
    if (error instanceof AppError && error.kind === "conflict") return null;
    throw error;
  }
}

async function otherActiveAdmins(id: number): Promise<number> {
  return db.user.count({ where: { role: "admin", disabledAt: null, id: { not: id } } });
}

/** Role, password or disabled. The last active admin cannot be demoted or disabled; a disabled user's sessions end. */
export async function updateUser(id: number, input: unknown, by: Principal): Promise<UserView> {
  const changes = parseInput(UserUpdateSchema, input);
  const current = await db.user.findUnique({ where: { id }, select });
  if (!current) throw new AccountError("not-found", `User ${id} does not exist.`);
  const losesAdmin =
    current.role === "admin" && ((changes.role && changes.role !== "admin") || changes.disabled === true);
  if (losesAdmin && (await otherActiveAdmins(id)) === 0) {
    throw new AccountError("conflict", `${current.username} is the last active admin: make another admin first.`, {
      fields: [{ field: changes.disabled ? "disabled" : "role", message: "would leave no active admin" }],
    });
  }
  if (changes.password && current.source !== "local") {
    throw new AccountError(
      "conflict",
      `${current.username} signs in through ${SOURCE_NAMES[current.source as ExternalSource] ?? current.source}: it has no password here.`,
      {
        fields: [{ field: "password", message: "cannot be set for a user an external authority signs in" }],
      },
    );
  }
  if (changes.disabled === true && by.userId === id) {
    throw new AccountError("conflict", "You cannot disable your own account.", {
      fields: [{ field: "disabled", message: "is your own account" }],
    });
  }
  const row = await db.user.update({
    where: { id },
    data: {
      ...(changes.role ? { role: changes.role } : {}),
      ...(changes.password ? { passwordHash: await hashPassword(changes.password) } : {}),
      ...(changes.disabled === undefined ? {} : { disabledAt: changes.disabled ? new Date() : null }),
    },
    select,
  });
  // A new password or a disabled account ends the user's sessions; a new role applies at once anyway.
  if (changes.password || changes.disabled) await db.session.deleteMany({ where: { userId: id } });
  const what = [
    changes.role && `role ${current.role} → ${changes.role}`,
    changes.password && "password changed",
    changes.disabled !== undefined && (changes.disabled ? "disabled" : "enabled"),
  ].filter(Boolean);
  await recordAudit("user.update", "user", id, `${row.username}: ${what.join(", ")}`);
  return view(row);
}

export async function deleteUser(id: number, by: Principal): Promise<void> {
  const current = await db.user.findUnique({ where: { id }, select });
  if (!current) throw new AccountError("not-found", `User ${id} does not exist.`);
  if (by.userId === id) throw new AccountError("conflict", "You cannot delete your own account.");
  if (current.role === "admin" && !current.disabledAt && (await otherActiveAdmins(id)) === 0) {
    throw new AccountError("conflict", `${current.username} is the last active admin: make another admin first.`);
  }
  await db.user.delete({ where: { id } });
  await recordAudit("user.delete", "user", id, current.username);
}
