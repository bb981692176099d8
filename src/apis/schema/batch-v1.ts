/**
 * Structural schema of batch/v1 (k8s.io/api/batch/v1) as of Kubernetes v1.32.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import {
  BATCH,
  CORE,
  META,
  bool,
  enumOf,
  group,
  int,
  kind,
  listOf,
  ref,
  required,
  str,
  struct,
  time,
} from './dsl'

const b = (name: string, description?: string) => ref(BATCH + name, description)
const c = (name: string, description?: string) => ref(CORE + name, description)
const m = (name: string, description?: string) => ref(META + name, description)

export const batchV1: SchemaSet = group(BATCH, {
  Job: kind('Job represents the configuration of a single job.', {
    spec: b('JobSpec', 'Specification of the desired behavior of a job.'),
    status: b('JobStatus', 'Current status of a job.'),
  }),
  JobSpec: struct(
    {
      parallelism: int(
        'Specifies the maximum desired number of pods the job should run at any given time. Defaults to 1.',
      ),
      completions: int(
        'Specifies the desired number of successfully finished pods the job should be run with.',
      ),
      activeDeadlineSeconds: int(
        'Specifies the duration in seconds relative to the startTime that the job may be continuously active before the system tries to terminate it.',
      ),
      podFailurePolicy: b('PodFailurePolicy', 'Specifies the policy of handling failed pods.'),
      successPolicy: b(
        'SuccessPolicy',
        'successPolicy specifies the policy when the Job can be declared as succeeded.',
      ),
      backoffLimit: int(
        'Specifies the number of retries before marking this job failed. Defaults to 6.',
      ),
      backoffLimitPerIndex: int(
        'Specifies the limit for the number of retries within an index before marking this index as failed.',
      ),
      maxFailedIndexes: int(
        'Specifies the maximal number of failed indexes before marking the Job as failed, when backoffLimitPerIndex is set.',
      ),
      selector: m(
        'LabelSelector',
        'A label query over pods that should match the pod count. Normally, the system sets this field for you.',
      ),
      manualSelector: bool(
        'manualSelector controls generation of pod labels and pod selectors. Leave `manualSelector` unset unless you are certain what you are doing.',
      ),
      template: required(
        c(
          'PodTemplateSpec',
          'Describes the pod that will be created when executing a job. The only allowed template.spec.restartPolicy values are "Never" or "OnFailure".',
        ),
      ),
      ttlSecondsAfterFinished: int(
        'ttlSecondsAfterFinished limits the lifetime of a Job that has finished execution (either Complete or Failed).',
      ),
      completionMode: enumOf(
        ['NonIndexed', 'Indexed'],
        'completionMode specifies how Pod completions are tracked. It can be `NonIndexed` (default) or `Indexed`.',
      ),
      suspend: bool(
        'suspend specifies whether the Job controller should create Pods or not. Defaults to false.',
      ),
      podReplacementPolicy: enumOf(
        ['TerminatingOrFailed', 'Failed'],
        'podReplacementPolicy specifies when to create replacement Pods.',
      ),
      managedBy: str(
        "ManagedBy field indicates the controller that manages a Job. The k8s Job controller reconciles jobs which don't have this field at all or the field value is the reserved string `kubernetes.io/job-controller`.",
      ),
    },
    'JobSpec describes how the job execution will look like.',
  ),
  PodFailurePolicy: struct({
    rules: required(
      listOf(
        b('PodFailurePolicyRule'),
        'A list of pod failure policy rules. The rules are evaluated in order.',
      ),
    ),
  }),
  PodFailurePolicyRule: struct({
    action: required(
      enumOf(
        ['FailJob', 'FailIndex', 'Ignore', 'Count'],
        'Specifies the action taken on a pod failure when the requirements are satisfied.',
      ),
    ),
    onExitCodes: b(
      'PodFailurePolicyOnExitCodesRequirement',
      'Represents the requirement on the container exit codes.',
    ),
    onPodConditions: listOf(
      b('PodFailurePolicyOnPodConditionsPattern'),
      'Represents the requirement on the pod conditions.',
    ),
  }),
  PodFailurePolicyOnExitCodesRequirement: struct({
    containerName: str(
      'Restricts the check for exit codes to the container with the specified name.',
    ),
    operator: required(
      enumOf(
        ['In', 'NotIn'],
        'Represents the relationship between the container exit code(s) and the specified values.',
      ),
    ),
    values: required(
      listOf(int(), {
        listType: 'set',
        description:
          'Specifies the set of values. Each returned container exit code (might be multiple in case of multiple containers) is checked against this set of values with respect to the operator.',
      }),
    ),
  }),
  PodFailurePolicyOnPodConditionsPattern: struct({
    type: required(str('Specifies the required Pod condition type.')),
    status: required(
      enumOf(['True', 'False', 'Unknown'], 'Specifies the required Pod condition status.'),
    ),
  }),
  SuccessPolicy: struct({
    rules: required(
      listOf(
        b('SuccessPolicyRule'),
        'rules represents the list of alternative rules for the declaring the Jobs as successful before `.status.succeeded >= .spec.completions`.',
      ),
    ),
  }),
  SuccessPolicyRule: struct({
    succeededIndexes: str(
      'succeededIndexes specifies the set of indexes which need to be contained in the actual set of the succeeded indexes for the Job.',
    ),
    succeededCount: int(
      'succeededCount specifies the minimal required size of the actual set of the succeeded indexes for the Job.',
    ),
  }),
  JobStatus: struct(
    {
      conditions: listOf(b('JobCondition'), {
        mergeKey: 'type',
        listType: 'atomic',
        description: "The latest available observations of an object's current state.",
      }),
      startTime: time('Represents time when the job controller started processing a job.'),
      completionTime: time('Represents time when the job was completed.'),
      active: int(
        'The number of pending and running pods which are not terminating (without a deletionTimestamp).',
      ),
      succeeded: int('The number of pods which reached phase Succeeded.'),
      failed: int('The number of pods which reached phase Failed.'),
      terminating: int(
        'The number of pods which are terminating (in phase Pending or Running and have a deletionTimestamp).',
      ),
      completedIndexes: str(
        'completedIndexes holds the completed indexes when .spec.completionMode = "Indexed" in a text format.',
      ),
      failedIndexes: str(
        'FailedIndexes holds the failed indexes when spec.backoffLimitPerIndex is set.',
      ),
      uncountedTerminatedPods: b(
        'UncountedTerminatedPods',
        "uncountedTerminatedPods holds the UIDs of Pods that have terminated but the job controller hasn't yet accounted for in the status counters.",
      ),
      ready: int(
        'The number of active pods which have a Ready condition and are not terminating (without a deletionTimestamp).',
      ),
    },
    'JobStatus represents the current state of a Job.',
  ),
  JobCondition: struct({
    type: required(str('Type of job condition, Complete or Failed.')),
    status: required(
      enumOf(['True', 'False', 'Unknown'], 'Status of the condition, one of True, False, Unknown.'),
    ),
    lastProbeTime: time('Last time the condition was checked.'),
    lastTransitionTime: time('Last time the condition transit from one status to another.'),
    reason: str("(brief) reason for the condition's last transition."),
    message: str('Human readable message indicating details about last transition.'),
  }),
  UncountedTerminatedPods: struct({
    succeeded: listOf(str(), {
      listType: 'set',
      description: 'succeeded holds UIDs of succeeded Pods.',
    }),
    failed: listOf(str(), { listType: 'set', description: 'failed holds UIDs of failed Pods.' }),
  }),
  JobTemplateSpec: struct(
    {
      metadata: m(
        'ObjectMeta',
        "Standard object's metadata of the jobs created from this template.",
      ),
      spec: b('JobSpec', 'Specification of the desired behavior of the job.'),
    },
    'JobTemplateSpec describes the data a Job should have when created from a template',
  ),

  CronJob: kind('CronJob represents the configuration of a single cron job.', {
    spec: b(
      'CronJobSpec',
      'Specification of the desired behavior of a cron job, including the schedule.',
    ),
    status: b('CronJobStatus', 'Current status of a cron job.'),
  }),
  CronJobSpec: struct(
    {
      schedule: required(
        str('The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
      ),
      timeZone: str(
        'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones.',
      ),
      startingDeadlineSeconds: int(
        'Optional deadline in seconds for starting the job if it misses scheduled time for any reason.',
      ),
      concurrencyPolicy: enumOf(
        ['Allow', 'Forbid', 'Replace'],
        'Specifies how to treat concurrent executions of a Job. Defaults to Allow.',
      ),
      suspend: bool(
        'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions. Defaults to false.',
      ),
      jobTemplate: required(
        b('JobTemplateSpec', 'Specifies the job that will be created when executing a CronJob.'),
      ),
      successfulJobsHistoryLimit: int(
        'The number of successful finished jobs to retain. Value must be non-negative integer. Defaults to 3.',
      ),
      failedJobsHistoryLimit: int(
        'The number of failed finished jobs to retain. Value must be non-negative integer. Defaults to 1.',
      ),
    },
    'CronJobSpec describes how the job execution will look like and when it will actually run.',
  ),
  CronJobStatus: struct(
    {
      active: listOf(c('ObjectReference'), 'A list of pointers to currently running jobs.'),
      lastScheduleTime: time(
        'Information when was the last time the job was successfully scheduled.',
      ),
      lastSuccessfulTime: time(
        'Information when was the last time the job successfully completed.',
      ),
    },
    'CronJobStatus represents the current state of a cron job.',
  ),
})
