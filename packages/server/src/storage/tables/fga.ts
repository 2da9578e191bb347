/** The model's version, one row (id 1), bumped by every write of the FGA model (migration 0026). */
export interface FgaStateTable {
  id: number;
  version: number | string;
}

/** Resource types, permissions and roles (migration 0026). */
export interface FgaDefinitionsTable {
  id: string;
  /** resource_type, permission or role. */
  kind: string;
  key: string;
  name: string;
  /** A role's permission keys as a JSON array; null for the other kinds. */
  permissionKeysJson: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface FgaResourcesTable {
  id: string;
  typeId: string;
  parentId: string | null;
  name: string;
  createdAt: number;
  updatedAt: number;
}

/** Groups, service accounts and agents. */
export interface FgaSubjectsTable {
  id: string;
  /** group, service_account or agent. */
  type: string;
  name: string;
  organizationId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface FgaGroupMembersTable {
  groupId: string;
  userId: string;
  createdAt: number;
}

export interface FgaGrantsTable {
  id: string;
  subjectType: string;
  subjectId: string;
  roleId: string;
  resourceId: string;
  managedBy: string;
  createdAt: number;
}
