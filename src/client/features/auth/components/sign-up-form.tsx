import { zodResolver } from "@hookform/resolvers/zod";
import { LoaderCircle } from "lucide-react";
import { useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { homePathFor } from "#shared/users/roles.ts";
import { signUpInputSchema } from "#shared/users/user.schemas.ts";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Select } from "../../../components/ui/select.tsx";
import { toast } from "../../../lib/toast.ts";
import { useSignUp } from "../auth.api.ts";
import { NewAccountFields } from "./new-account-fields.tsx";
import { SocialSignIn } from "./social-sign-in.tsx";

const roleOptions = [
  { value: "user", label: "User" },
  { value: "technician", label: "Technician" },
] as const;

const registrationFailed = "Something went wrong with the registration";

export function SignUpForm() {
  const id = useId();
  const navigate = useNavigate();
  const signUp = useSignUp();
  const [serverError, setServerError] = useState<string | null>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(signUpInputSchema),
    defaultValues: { name: "", email: "", password: "", role: "user" },
  });

  const handleSignUp = handleSubmit(async (input) => {
    setServerError(null);
    try {
      const actor = await signUp.mutateAsync(input);
      toast.success("Registration was a success");
      navigate(homePathFor(actor.role), { replace: true });
    } catch (error) {
      toast.error(registrationFailed);
      // The toast already says the generic failure (spec §8); the form adds only a reason that says more.
      const reason = error instanceof Error ? error.message : "";
      setServerError(reason && reason !== registrationFailed ? reason : null);
      // On a phone the button may sit where the toast appears: once the form has re-rendered, lift it
      // above (html's scroll-padding-bottom keeps the toast's height free).
      requestAnimationFrame(() => submitRef.current?.scrollIntoView({ block: "nearest" }));
    }
  });

  return (
    <>
      <form noValidate onSubmit={handleSignUp} className="flex flex-col gap-5">
        <NewAccountFields register={register} errors={errors} />
        <Field label="Role" htmlFor={`${id}-role`} error={errors.role?.message}>
          <Select
            id={`${id}-role`}
            options={roleOptions}
            invalid={errors.role !== undefined}
            {...register("role")}
          />
        </Field>
        {serverError ? <Alert>{serverError}</Alert> : null}
        <Button ref={submitRef} type="submit" size="lg" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          Sign Up
        </Button>
      </form>
      <SocialSignIn />
      <p className="mt-6 text-center text-sm text-slate-500">
        Already have an account?{" "}
        <Link to="/sign-in" className="font-medium text-indigo-600 hover:text-indigo-500">
          Sign in
        </Link>
      </p>
    </>
  );
}
