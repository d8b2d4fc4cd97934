import { zodResolver } from "@hookform/resolvers/zod";
import { Trans, useLingui } from "@lingui/react/macro";
import { LoaderCircle } from "lucide-react";
import { useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Field } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { useSignUp } from "#client/features/auth/auth.api.ts";
import { useFormAnswer } from "#client/lib/form-answer.ts";
import { Link } from "#client/lib/router/links.tsx";
import { useNavigate } from "#client/lib/router/router.tsx";
import { toast } from "#client/lib/toast.ts";
import { homePathFor } from "#shared/users/roles.ts";
import { signUpInputSchema } from "#shared/users/user.schemas.ts";
import { NewAccountFields } from "./new-account-fields.tsx";
import { SocialSignIn } from "./social-sign-in.tsx";

export function SignUpForm() {
  const { t } = useLingui();
  const roleOptions = [
    { value: "user", label: t`User` },
    { value: "technician", label: t`Technician` },
  ] as const;
  const registrationFailed = t`Something went wrong with the registration`;
  const id = useId();
  const navigate = useNavigate();
  const signUp = useSignUp();
  // Posted before or without the code, the server signed up through the same API and drew this page again
  // with its answer (decision 065): the fields as they were sent, what is wrong with them, its reason.
  const answer = useFormAnswer("sign-up");
  const [answerErrors, setAnswerErrors] = useState(answer?.fieldErrors ?? {});
  const [serverError, setServerError] = useState<string | null>(() =>
    answer?.message ? (answer.code === "registration_failed" ? registrationFailed : answer.message) : null,
  );
  const submitRef = useRef<HTMLButtonElement>(null);
  // No default values: each field starts from what the page shows (drawn with the answer's values, or
  // typed before the code arrived), which react-hook-form reads when it takes the field over.
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(signUpInputSchema) });

  const handleSignUp = handleSubmit(async (input) => {
    setServerError(null);
    try {
      const actor = await signUp.mutateAsync(input);
      toast.success(t`Registration was a success`);
      navigate(homePathFor(actor.role), { replace: true });
    } catch (error) {
      toast.error(registrationFailed);
      // The toast already says the generic failure; the form adds only a reason that says more.
      const reason = error instanceof Error ? error.message : "";
      setServerError(reason && reason !== registrationFailed ? reason : null);
      // On a phone the button may sit where the toast appears: once the form has re-rendered, lift it
      // above (html's scroll-padding-bottom keeps the toast's height free).
      requestAnimationFrame(() => submitRef.current?.scrollIntoView({ block: "nearest" }));
    }
  });

  return (
    <>
      <form
        method="post"
        name="sign-up"
        noValidate
        onSubmit={(event) => {
          setAnswerErrors({});
          return handleSignUp(event);
        }}
        className="flex flex-col gap-5"
      >
        <NewAccountFields
          register={register}
          errors={errors}
          answerErrors={answerErrors}
          values={answer?.values}
        />
        <Field label={t`Role`} htmlFor={`${id}-role`} error={errors.role?.message ?? answerErrors.role}>
          <Select
            id={`${id}-role`}
            options={roleOptions}
            invalid={errors.role !== undefined || answerErrors.role !== undefined}
            defaultValue={answer?.values.role ?? "user"}
            {...register("role")}
          />
        </Field>
        {serverError ? <Alert>{serverError}</Alert> : null}
        <Button ref={submitRef} type="submit" size="lg" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          <Trans>Sign Up</Trans>
        </Button>
      </form>
      <SocialSignIn />
      <p className="mt-6 text-center text-sm text-slate-500">
        <Trans>
          Already have an account?{" "}
          <Link to="/sign-in" className="font-medium text-indigo-600 hover:text-indigo-500">
            Sign in
          </Link>
        </Trans>
      </p>
    </>
  );
}
