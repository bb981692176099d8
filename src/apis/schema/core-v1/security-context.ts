/** The container and pod security contexts of core/v1 and the profiles they name. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, bool, enumOf, group, int, listOf, required, str, struct } from '../dsl'
import { c, strings } from './shorthands'

export const coreV1SecurityContext: SchemaSet = group(CORE, {
  SecurityContext: struct(
    {
      capabilities: c('Capabilities', 'The capabilities to add/drop when running containers.'),
      privileged: bool('Run container in privileged mode. Defaults to false.'),
      seLinuxOptions: c('SELinuxOptions', 'The SELinux context to be applied to the container.'),
      windowsOptions: c(
        'WindowsSecurityContextOptions',
        'The Windows specific settings applied to all containers.',
      ),
      runAsUser: int('The UID to run the entrypoint of the container process.'),
      runAsGroup: int('The GID to run the entrypoint of the container process.'),
      runAsNonRoot: bool('Indicates that the container must run as a non-root user.'),
      readOnlyRootFilesystem: bool(
        'Whether this container has a read-only root filesystem. Default is false.',
      ),
      allowPrivilegeEscalation: bool(
        'AllowPrivilegeEscalation controls whether a process can gain more privileges than its parent process.',
      ),
      procMount: enumOf(
        ['Default', 'Unmasked'],
        'procMount denotes the type of proc mount to use for the containers.',
      ),
      seccompProfile: c('SeccompProfile', 'The seccomp options to use by this container.'),
      appArmorProfile: c(
        'AppArmorProfile',
        'appArmorProfile is the AppArmor options to use by this container.',
      ),
    },
    'SecurityContext holds security configuration that will be applied to a container.',
  ),
  PodSecurityContext: struct(
    {
      seLinuxOptions: c('SELinuxOptions', 'The SELinux context to be applied to all containers.'),
      windowsOptions: c(
        'WindowsSecurityContextOptions',
        'The Windows specific settings applied to all containers.',
      ),
      runAsUser: int('The UID to run the entrypoint of the container process.'),
      runAsGroup: int('The GID to run the entrypoint of the container process.'),
      runAsNonRoot: bool('Indicates that the container must run as a non-root user.'),
      supplementalGroups: listOf(
        int(),
        "A list of groups applied to the first process run in each container, in addition to the container's primary GID and fsGroup.",
      ),
      supplementalGroupsPolicy: enumOf(
        ['Merge', 'Strict'],
        'Defines how supplemental groups of the first container processes are calculated.',
      ),
      fsGroup: int('A special supplemental group that applies to all containers in a pod.'),
      sysctls: listOf(c('Sysctl'), 'Sysctls hold a list of namespaced sysctls used for the pod.'),
      fsGroupChangePolicy: enumOf(
        ['OnRootMismatch', 'Always'],
        'fsGroupChangePolicy defines behavior of changing ownership and permission of the volume before being exposed inside Pod.',
      ),
      seccompProfile: c(
        'SeccompProfile',
        'The seccomp options to use by the containers in this pod.',
      ),
      appArmorProfile: c(
        'AppArmorProfile',
        'appArmorProfile is the AppArmor options to use by the containers in this pod.',
      ),
      seLinuxChangePolicy: enumOf(
        ['MountOption', 'Recursive'],
        "seLinuxChangePolicy defines how the container's SELinux label is applied to all volumes used by the Pod.",
      ),
    },
    'PodSecurityContext holds pod-level security attributes and common container settings.',
  ),
  Capabilities: struct({
    add: strings('Added capabilities'),
    drop: strings('Removed capabilities'),
  }),
  SELinuxOptions: struct({
    user: str('User is a SELinux user label that applies to the container.'),
    role: str('Role is a SELinux role label that applies to the container.'),
    type: str('Type is a SELinux type label that applies to the container.'),
    level: str('Level is SELinux level label that applies to the container.'),
  }),
  WindowsSecurityContextOptions: struct({
    gmsaCredentialSpecName: str(
      'GMSACredentialSpecName is the name of the GMSA credential spec to use.',
    ),
    gmsaCredentialSpec: str(
      'GMSACredentialSpec is where the GMSA admission webhook inlines the contents of the GMSA credential spec.',
    ),
    runAsUserName: str('The UserName in Windows to run the entrypoint of the container process.'),
    hostProcess: bool(
      "HostProcess determines if a container should be run as a 'Host Process' container.",
    ),
  }),
  SeccompProfile: struct({
    type: required(
      enumOf(
        ['Unconfined', 'RuntimeDefault', 'Localhost'],
        'type indicates which kind of seccomp profile will be applied.',
      ),
    ),
    localhostProfile: str(
      'localhostProfile indicates a profile defined in a file on the node should be used.',
    ),
  }),
  AppArmorProfile: struct({
    type: required(
      enumOf(
        ['Unconfined', 'RuntimeDefault', 'Localhost'],
        'type indicates which kind of AppArmor profile will be applied.',
      ),
    ),
    localhostProfile: str(
      'localhostProfile indicates a profile loaded on the node that should be used.',
    ),
  }),
  Sysctl: struct({
    name: required(str('Name of a property to set')),
    value: required(str('Value of a property to set')),
  }),
})
