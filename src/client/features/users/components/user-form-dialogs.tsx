import { zodResolver } from "@hookform/resolvers/zod";
import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { Field, TextField } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { useEditUser, useInviteUser } from "#client/features/users/users.api.ts";
import { toast } from "#client/lib/toast.ts";
import { roleLabel, userStatusLabel } from "#client/lib/user-labels.ts";
import { roles, userStatuses } from "#shared/users/roles.ts";
import { defaultDepartment } from "#shared/users/user.schemas.ts";
import {
  type EditUserInput,
  editUserInputSchema,
  type InviteUserInput,
  inviteUserInputSchema,
  type ManagedUser,
} from "#shared/users/user-management.schemas.ts";

const roleOptionsOf = () => roles.map((role) => ({ value: role, label: roleLabel(role) }));
const statusOptionsOf = () =>
  userStatuses.map((status) => ({ value: status, label: userStatusLabel(status) }));
const messageOf = (error: unknown) => (error instanceof Error ? error.message : tc`Something went wrong.`);

/** Edit: name, role, department and status, all required; the server has the last word. */
export function EditUserDialog({
  user,
  departments,
  onClose,
}: {
  user: ManagedUser;
  /** The departments admins keep, offered as suggestions; any other department can still be typed. */
  departments?: readonly string[];
  onClose: () => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const editUser = useEditUser(user.id);
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<EditUserInput>({
    resolver: zodResolver(editUserInputSchema),
    defaultValues: {
      name: user.name,
      role: user.role ?? "user",
      department: user.department,
      status: user.status,
    },
  });

  const handleSave = handleSubmit(async (input) => {
    setServerError(null);
    try {
      await editUser.mutateAsync(input);
      toast.success(t`User updated successfully`);
      onClose();
    } catch (error) {
      setServerError(messageOf(error));
    }
  });

  return (
    <Dialog title={t`Edit user`} description={user.email} onClose={onClose}>
      <form noValidate onSubmit={handleSave} className="flex flex-col gap-4">
        {serverError ? <Alert>{serverError}</Alert> : null}
        <TextField
          label={t`Full Name`}
          error={errors.name?.message}
          autoComplete="off"
          {...register("name")}
        />
        <Field label={t`Role`} htmlFor={`${id}-role`} error={errors.role?.message}>
          <Select id={`${id}-role`} options={roleOptionsOf()} {...register("role")} />
        </Field>
        <TextField
          label={t`Department`}
          error={errors.department?.message}
          autoComplete="off"
          suggestions={departments}
          {...register("department")}
        />
        <Field label={t`Status`} htmlFor={`${id}-status`} error={errors.status?.message}>
          <Select id={`${id}-status`} options={statusOptionsOf()} {...register("status")} />
        </Field>
        <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? t`Saving…` : t`Save changes`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Add user: an invitation by e-mail; the person chooses their own password from the link. */
export function InviteUserDialog({
  departments,
  onClose,
}: {
  departments?: readonly string[];
  onClose: () => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const inviteUser = useInviteUser();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<InviteUserInput>({
    resolver: zodResolver(inviteUserInputSchema),
    defaultValues: { name: "", email: "", role: "user", department: defaultDepartment },
  });

  const handleInvite = handleSubmit(async (input) => {
    setServerError(null);
    try {
      const user = await inviteUser.mutateAsync(input);
      toast.success(t`Invitation sent to ${user.email}`);
      onClose();
    } catch (error) {
      setServerError(messageOf(error));
    }
  });

  return (
    <Dialog
      title={t`Add user`}
      description={t`They receive an e-mail with a link to choose their own password.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={handleInvite} className="flex flex-col gap-4">
        {serverError ? <Alert>{serverError}</Alert> : null}
        <TextField
          label={t`Full Name`}
          error={errors.name?.message}
          autoComplete="off"
          {...register("name")}
        />
        <TextField
          label={t`Email`}
          type="email"
          error={errors.email?.message}
          autoComplete="off"
          {...register("email")}
        />
        <Field label={t`Role`} htmlFor={`${id}-role`} error={errors.role?.message}>
          <Select id={`${id}-role`} options={roleOptionsOf()} {...register("role")} />
        </Field>
        <TextField
          label={t`Department`}
          error={errors.department?.message}
          autoComplete="off"
          suggestions={departments}
          {...register("department")}
        />
        <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? t`Sending…` : t`Send invitation`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
