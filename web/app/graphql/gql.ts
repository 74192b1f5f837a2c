/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Account {\n    viewer {\n      id\n      email\n      emailVerified\n      pendingEmail\n    }\n    sessions {\n      id\n      createdAt\n      expiresAt\n      current\n    }\n  }\n": typeof types.AccountDocument,
    "\n  mutation ChangeEmail($currentPassword: String!, $newEmail: String!) {\n    changeEmail(currentPassword: $currentPassword, newEmail: $newEmail) {\n      changed\n      pendingEmail\n      user {\n        email\n      }\n    }\n  }\n": typeof types.ChangeEmailDocument,
    "\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!, $revokeApiTokens: Boolean!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword, revokeApiTokens: $revokeApiTokens) {\n      token\n    }\n  }\n": typeof types.ChangePasswordDocument,
    "\n  mutation RevokeSession($id: ID!) {\n    revokeSession(id: $id)\n  }\n": typeof types.RevokeSessionDocument,
    "\n  mutation RevokeOtherSessions {\n    revokeOtherSessions\n  }\n": typeof types.RevokeOtherSessionsDocument,
    "\n  mutation ConfirmEmailChange($token: String!) {\n    confirmEmailChange(token: $token) {\n      email\n    }\n  }\n": typeof types.ConfirmEmailChangeDocument,
    "\n  mutation ResendEmailConfirmation {\n    resendEmailConfirmation\n  }\n": typeof types.ResendEmailConfirmationDocument,
    "\n  query AdminOrganizations($after: String) {\n    adminOrganizations(first: 50, after: $after) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        name\n        slug\n        plan\n        memberCount\n        projectCount\n        liveSubscription\n        events {\n          used\n          limit\n        }\n        logs {\n          used\n          limit\n        }\n      }\n    }\n    plans {\n      id\n      name\n    }\n  }\n": typeof types.AdminOrganizationsDocument,
    "\n  mutation AdminSetOrganizationPlan($organizationId: ID!, $plan: String!, $force: Boolean) {\n    adminSetOrganizationPlan(organizationId: $organizationId, plan: $plan, force: $force) {\n      planBefore\n      overrodeSubscription\n      organization {\n        slug\n        plan\n      }\n    }\n  }\n": typeof types.AdminSetOrganizationPlanDocument,
    "\n  query AdminDeadLetters {\n    adminDeadLetters(first: 100) {\n      totalCount\n      nodes {\n        id\n        topic\n        kind\n        attempts\n        firstFailedAt\n        lastFailedAt\n        reason\n      }\n    }\n  }\n": typeof types.AdminDeadLettersDocument,
    "\n  mutation AdminReplayDeadLetters($ids: [ID!], $all: Boolean) {\n    adminReplayDeadLetters(ids: $ids, all: $all)\n  }\n": typeof types.AdminReplayDeadLettersDocument,
    "\n  mutation AdminPurgeDeadLetters($olderThanDays: Int!) {\n    adminPurgeDeadLetters(olderThanDays: $olderThanDays)\n  }\n": typeof types.AdminPurgeDeadLettersDocument,
    "\n  query AdminInstance {\n    adminInstance {\n      version\n      nodeVersion\n      databaseKind\n      databaseVersion\n      migrations {\n        name\n        timestamp\n      }\n      pendingMigrations\n      deadLetterCount\n      smtp {\n        configured\n        host\n        port\n        secure\n        from\n      }\n      stripe {\n        configured\n        secretKey\n        webhookSecret\n        pricePro\n        priceBusiness\n        mode\n      }\n    }\n  }\n": typeof types.AdminInstanceDocument,
    "\n  mutation AdminSendTestEmail {\n    adminSendTestEmail {\n      to\n      response\n    }\n  }\n": typeof types.AdminSendTestEmailDocument,
    "\n  query AlertRules($projectId: ID!, $deliveries: Int!) {\n    alertRules(projectId: $projectId) {\n      id\n      kind\n      enabled\n      createdAt\n      secret\n      masked\n      threshold\n      windowMinutes\n      query\n      actionIntervalMinutes\n      digestMinutes\n      mutedUntil\n      filter {\n        environments\n        minLevel\n        tags {\n          key\n          value\n        }\n        release\n        assigned\n      }\n      channel {\n        type\n        url\n        email\n      }\n      deliveries(first: $deliveries) {\n        id\n        kind\n        status\n        attempts\n        lastError\n        lastStatus\n        createdAt\n        deliveredAt\n        nextAttemptAt\n        response\n        test\n      }\n      failing\n      recentFailures\n    }\n    alertChannels {\n      type\n      name\n      target\n      available\n      unavailableReason\n      help\n    }\n  }\n": typeof types.AlertRulesDocument,
    "\n  mutation CreateAlertRule(\n    $projectId: ID!\n    $kind: AlertKind!\n    $channel: AlertChannelInput!\n    $threshold: Int\n    $windowMinutes: Int\n    $query: String\n    $filter: AlertFilterInput\n    $actionIntervalMinutes: Int\n    $digestMinutes: Int\n  ) {\n    createAlertRule(\n      projectId: $projectId\n      kind: $kind\n      channel: $channel\n      threshold: $threshold\n      windowMinutes: $windowMinutes\n      query: $query\n      filter: $filter\n      actionIntervalMinutes: $actionIntervalMinutes\n      digestMinutes: $digestMinutes\n    ) {\n      id\n    }\n  }\n": typeof types.CreateAlertRuleDocument,
    "\n  mutation UpdateAlertRuleSettings(\n    $id: ID!\n    $kind: AlertKind!\n    $threshold: Int\n    $windowMinutes: Int\n    $query: String\n    $filter: AlertFilterInput\n    $actionIntervalMinutes: Int\n    $digestMinutes: Int\n  ) {\n    updateAlertRule(\n      id: $id\n      kind: $kind\n      threshold: $threshold\n      windowMinutes: $windowMinutes\n      query: $query\n      filter: $filter\n      actionIntervalMinutes: $actionIntervalMinutes\n      digestMinutes: $digestMinutes\n    ) {\n      id\n    }\n  }\n": typeof types.UpdateAlertRuleSettingsDocument,
    "\n  mutation MuteAlertRule($id: ID!, $until: String) {\n    muteAlertRule(id: $id, until: $until) {\n      id\n      mutedUntil\n    }\n  }\n": typeof types.MuteAlertRuleDocument,
    "\n  mutation UpdateAlertRule($id: ID!, $enabled: Boolean) {\n    updateAlertRule(id: $id, enabled: $enabled) {\n      id\n    }\n  }\n": typeof types.UpdateAlertRuleDocument,
    "\n  mutation TestAlertRule($id: ID!) {\n    testAlertRule(id: $id) {\n      id\n      kind\n      status\n      attempts\n      lastError\n      lastStatus\n      response\n      test\n      createdAt\n      deliveredAt\n      nextAttemptAt\n    }\n  }\n": typeof types.TestAlertRuleDocument,
    "\n  mutation DeleteAlertRule($id: ID!) {\n    deleteAlertRule(id: $id)\n  }\n": typeof types.DeleteAlertRuleDocument,
    "\n  query AuditOrganizations {\n    viewer {\n      id\n      organizations {\n        id\n        slug\n        name\n      }\n    }\n  }\n": typeof types.AuditOrganizationsDocument,
    "\n  query AuditLog($organizationId: ID!, $first: Int!, $after: String, $filter: AuditLogFilter) {\n    auditLog(organizationId: $organizationId, first: $first, after: $after, filter: $filter) {\n      nodes {\n        id\n        action\n        time\n        actor {\n          type\n          label\n          userId\n          apiTokenId\n          apiTokenName\n          apiTokenPrefix\n        }\n        target {\n          type\n          id\n          label\n        }\n        changes\n        clientAddress\n        userAgent\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.AuditLogDocument,
    "\n  fragment StackFrameFields on Frame {\n    filename\n    function\n    lineno\n    colno\n    inApp\n    minified {\n      filename\n      function\n      lineno\n      colno\n    }\n    context {\n      pre\n      line\n      post\n    }\n    vars {\n      name\n      value\n    }\n  }\n": typeof types.StackFrameFieldsFragmentDoc,
    "\n  fragment EventDetailFields on Event {\n    id\n    eventId\n    message\n    logMessage\n    type\n    level\n    handled\n    environment\n    release\n    url\n    timestamp\n    user\n    tags {\n      key\n      value\n    }\n    context\n    sdk {\n      name\n      version\n    }\n    fingerprint\n    # The thrown error first (its frames are the event's), then its causes.\n    exceptions {\n      type\n      value\n      frames {\n        ...StackFrameFields\n      }\n    }\n    breadcrumbs {\n      timestamp\n      category\n      message\n      level\n      data\n    }\n    request {\n      method\n      url\n      queryString\n      headers {\n        name\n        value\n      }\n      data\n    }\n    componentStack\n    navigation {\n      oldest\n      older\n      newer\n      latest\n    }\n  }\n": typeof types.EventDetailFieldsFragmentDoc,
    "\n  query EventJson($issueId: ID!, $eventId: ID!) {\n    issue(id: $issueId) {\n      id\n      projectId\n      event(id: $eventId) {\n        json\n      }\n    }\n  }\n": typeof types.EventJsonDocument,
    "\n  query IssueDetail(\n    $id: ID!\n    $eventsFirst: Int!\n    $eventsAfter: String\n    $range: SeriesRange!\n    $eventId: ID!\n    $picked: Boolean!\n    $activityFirst: Int!\n    $projectId: ID!\n  ) {\n    issue(id: $id) {\n      id\n      projectId\n      title\n      type\n      culprit\n      status\n      level\n      isRegression\n      eventCount\n      userCount\n      firstSeen\n      lastSeen\n      resolvedAt\n      snoozedUntil\n      snooze {\n        kind\n        until\n        minutes\n        forEvents\n        forUsers\n        remaining\n      }\n      discarded\n      discardedAt\n      mergedIssueCount\n      alertsMutedUntil\n      assignee {\n        id\n        email\n      }\n      activity(first: $activityFirst) {\n        id\n        kind\n        actor {\n          id\n          email\n        }\n        createdAt\n        message\n        comment {\n          id\n          body\n          createdAt\n          updatedAt\n          editable\n        }\n      }\n      resolvedInRelease {\n        version\n        environment\n        deployedAt\n      }\n      releases {\n        version\n        environment\n        firstSeen\n        lastSeen\n        eventCount\n      }\n      suspectCommits {\n        release\n        files\n        commit {\n          id\n          repository\n          authorName\n          authorEmail\n          message\n          timestamp\n        }\n      }\n      tags {\n        key\n        count\n        values {\n          value\n          count\n        }\n      }\n      series: eventSeries(range: $range) {\n        ts\n        count\n      }\n      events(first: $eventsFirst, after: $eventsAfter) {\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        nodes {\n          id\n          eventId\n          message\n          environment\n          release\n          timestamp\n          user\n        }\n      }\n      latestEvent @skip(if: $picked) {\n        ...EventDetailFields\n      }\n      # By its UUID within this issue: another issue's event answers null.\n      event(id: $eventId) @include(if: $picked) {\n        issueId\n        ...EventDetailFields\n      }\n      feedback {\n        id\n        message\n        email\n        name\n        url\n        receivedAt\n      }\n    }\n    # The assignee picker's choices: the members of the project's organization.\n    project(id: $projectId) {\n      id\n      traceUrlTemplate\n      members {\n        userId\n        email\n      }\n    }\n  }\n": typeof types.IssueDetailDocument,
    "\n  mutation ResolveIssue($id: ID!) {\n    resolveIssue(id: $id) {\n      id\n    }\n  }\n": typeof types.ResolveIssueDocument,
    "\n  mutation ReopenIssue($id: ID!) {\n    reopenIssue(id: $id) {\n      id\n    }\n  }\n": typeof types.ReopenIssueDocument,
    "\n  mutation SnoozeIssue($id: ID!, $until: String, $minutes: Int, $forEvents: Int, $forUsers: Int) {\n    snoozeIssue(id: $id, until: $until, minutes: $minutes, forEvents: $forEvents, forUsers: $forUsers) {\n      id\n    }\n  }\n": typeof types.SnoozeIssueDocument,
    "\n  mutation UnmergeIssue($id: ID!) {\n    unmergeIssue(id: $id) {\n      id\n      title\n    }\n  }\n": typeof types.UnmergeIssueDocument,
    "\n  mutation DiscardIssue($id: ID!, $discard: Boolean!) {\n    discardIssue(id: $id, discard: $discard) {\n      id\n      discarded\n    }\n  }\n": typeof types.DiscardIssueDocument,
    "\n  mutation AssignIssue($id: ID!, $userId: ID) {\n    assignIssue(id: $id, userId: $userId) {\n      id\n    }\n  }\n": typeof types.AssignIssueDocument,
    "\n  mutation AddComment($issueId: ID!, $body: String!) {\n    addComment(issueId: $issueId, body: $body) {\n      id\n    }\n  }\n": typeof types.AddCommentDocument,
    "\n  mutation UpdateComment($id: ID!, $body: String!) {\n    updateComment(id: $id, body: $body) {\n      id\n    }\n  }\n": typeof types.UpdateCommentDocument,
    "\n  mutation DeleteComment($id: ID!) {\n    deleteComment(id: $id)\n  }\n": typeof types.DeleteCommentDocument,
    "\n  query ProjectIssues(\n    $projectId: ID!\n    $status: IssueStatus\n    $discarded: Boolean\n    $first: Int!\n    $after: String\n    $search: String\n    $query: String\n    $environment: String\n    $release: String\n    $sort: IssueSort!\n    $assigned: IssueAssignedFilter\n  ) {\n    issues(\n      projectId: $projectId\n      status: $status\n      discarded: $discarded\n      first: $first\n      after: $after\n      search: $search\n      query: $query\n      environment: $environment\n      release: $release\n      sort: $sort\n      assigned: $assigned\n    ) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        title\n        culprit\n        level\n        status\n        isRegression\n        eventCount\n        userCount\n        lastSeen\n        assignee {\n          id\n          email\n        }\n        series(hours: 24) {\n          ts\n          count\n        }\n      }\n    }\n    all: issues(projectId: $projectId, first: 1) {\n      totalCount\n    }\n    allDiscarded: issues(projectId: $projectId, first: 1, discarded: true) {\n      totalCount\n    }\n    savedSearches(projectId: $projectId) {\n      id\n      name\n      query\n    }\n  }\n": typeof types.ProjectIssuesDocument,
    "\n  mutation CreateSavedSearch($projectId: ID!, $name: String!, $query: String!) {\n    createSavedSearch(projectId: $projectId, name: $name, query: $query) {\n      id\n    }\n  }\n": typeof types.CreateSavedSearchDocument,
    "\n  mutation DeleteSavedSearch($id: ID!) {\n    deleteSavedSearch(id: $id)\n  }\n": typeof types.DeleteSavedSearchDocument,
    "\n  mutation ResolveIssues($ids: [ID!]!) {\n    resolveIssues(ids: $ids) {\n      id\n    }\n  }\n": typeof types.ResolveIssuesDocument,
    "\n  mutation MergeIssues($sourceId: ID!, $targetId: ID!) {\n    mergeIssues(sourceId: $sourceId, targetId: $targetId) {\n      id\n      title\n    }\n  }\n": typeof types.MergeIssuesDocument,
    "\n  query OrganizationsOfViewer {\n    viewer {\n      id\n      twoFactorEnabled\n      organizations {\n        id\n        slug\n      }\n    }\n  }\n": typeof types.OrganizationsOfViewerDocument,
    "\n  query OrganizationSettings($id: ID!) {\n    organization(id: $id) {\n      id\n      name\n      slug\n      plan\n      requireTwoFactor\n      projects {\n        id\n        name\n      }\n      usage {\n        period\n        periodEnd\n        events {\n          used\n          limit\n          remaining\n        }\n        logs {\n          used\n          limit\n          remaining\n        }\n      }\n    }\n  }\n": typeof types.OrganizationSettingsDocument,
    "\n  mutation RenameOrganization($id: ID!, $name: String!) {\n    renameOrganization(id: $id, name: $name) {\n      id\n      name\n    }\n  }\n": typeof types.RenameOrganizationDocument,
    "\n  mutation SetOrganizationRequireTwoFactor($id: ID!, $required: Boolean!) {\n    setOrganizationRequireTwoFactor(organizationId: $id, required: $required) {\n      id\n      requireTwoFactor\n    }\n  }\n": typeof types.SetOrganizationRequireTwoFactorDocument,
    "\n  fragment ReleaseHealthFields on ReleaseHealth {\n    issuesIntroduced\n    regressions\n    basis\n    crashFreeSessions\n    sessions {\n      started\n    }\n    usersSeen\n    crashedUsers\n    crashFreeUsers\n    windowEvents\n    enoughData\n    eventsPerHour\n    previousVersion\n    previousIssuesIntroduced\n    previousRegressions\n    previousCrashFreeUsers\n    previousEventsPerHour\n    eventsPerHourRatio\n  }\n": typeof types.ReleaseHealthFieldsFragmentDoc,
    "\n  fragment ReleaseIssueFields on ReleaseIssueList {\n    totalCount\n    nodes {\n      environments\n      at\n      issue {\n        id\n        title\n        culprit\n        level\n        status\n        isRegression\n        eventCount\n        userCount\n        lastSeen\n      }\n    }\n  }\n": typeof types.ReleaseIssueFieldsFragmentDoc,
    "\n  query ReleaseDetail($projectId: ID!, $version: String!, $issues: Int!, $files: Int!) {\n    project(id: $projectId) {\n      id\n      organizationId\n    }\n    viewer {\n      id\n      organizations {\n        id\n        plan\n      }\n    }\n    plans {\n      ...PlanFields\n    }\n    release(projectId: $projectId, version: $version) {\n      version\n      dateCreated\n      dateReleased\n      deploys {\n        id\n        environment\n        deployedAt\n      }\n      newIssues(first: $issues) {\n        ...ReleaseIssueFields\n      }\n      regressedIssues(first: $issues) {\n        ...ReleaseIssueFields\n      }\n      resolvedIssues(first: $issues) {\n        ...ReleaseIssueFields\n      }\n      sourceMaps(first: $files) {\n        totalCount\n        totalBytes\n        nodes {\n          filename\n          sizeBytes\n          uploadedAt\n        }\n      }\n      artifactBundles(first: 25) {\n        checksum\n        dist\n        fileCount\n        assembledAt\n      }\n      commits(first: 100) {\n        id\n        repository\n        authorName\n        authorEmail\n        message\n        timestamp\n      }\n    }\n  }\n": typeof types.ReleaseDetailDocument,
    "\n  query ReleaseDetailHealth($projectId: ID!, $version: String!) {\n    release(projectId: $projectId, version: $version) {\n      deploys {\n        id\n        health {\n          ...ReleaseHealthFields\n        }\n      }\n    }\n  }\n": typeof types.ReleaseDetailHealthDocument,
    "\n  fragment ReleaseVersionFields on Release {\n    dateReleased\n    commits {\n      id\n      repository\n      authorName\n      authorEmail\n      message\n      timestamp\n    }\n  }\n": typeof types.ReleaseVersionFieldsFragmentDoc,
    "\n  query UnregisteredReleases($projectId: ID!) {\n    unregisteredReleases(projectId: $projectId, first: 50) {\n      version\n      environments\n      firstSeen\n      lastSeen\n      eventCount\n    }\n  }\n": typeof types.UnregisteredReleasesDocument,
    "\n  query ProjectInboundFilters($projectId: ID!) {\n    projectInboundFilters(projectId: $projectId) {\n      projectId\n      browserExtensions\n      localhost\n      legacyBrowsers\n      legacyBrowserMinVersions {\n        browser\n        minVersion\n      }\n      webCrawlers\n      errorMessages\n      releases\n      dropped {\n        filter\n        dropped\n      }\n    }\n  }\n": typeof types.ProjectInboundFiltersDocument,
    "\n  mutation UpdateProjectInboundFilters(\n    $projectId: ID!\n    $input: ProjectInboundFiltersInput!\n    $confirmDropAll: Boolean!\n  ) {\n    updateProjectInboundFilters(projectId: $projectId, input: $input, confirmDropAll: $confirmDropAll) {\n      projectId\n    }\n  }\n": typeof types.UpdateProjectInboundFiltersDocument,
    "\n  query ProjectPrivacy($projectId: ID!) {\n    project(id: $projectId) {\n      id\n      privacy {\n        scrubDefaults\n        sensitiveFields\n        scrubIpAddresses\n      }\n    }\n    previewScrubbing(projectId: $projectId) {\n      sample\n      event\n    }\n  }\n": typeof types.ProjectPrivacyDocument,
    "\n  query PreviewScrubbing($projectId: ID!, $sample: String, $draft: ProjectPrivacyInput) {\n    previewScrubbing(projectId: $projectId, sample: $sample, draft: $draft) {\n      sample\n      event\n    }\n  }\n": typeof types.PreviewScrubbingDocument,
    "\n  mutation UpdateProjectPrivacy($id: ID!, $input: ProjectPrivacyInput!) {\n    updateProjectPrivacy(id: $id, input: $input) {\n      id\n      privacy {\n        scrubDefaults\n        sensitiveFields\n        scrubIpAddresses\n      }\n    }\n  }\n": typeof types.UpdateProjectPrivacyDocument,
    "\n  query ProjectOrganization($id: ID!) {\n    project(id: $id) {\n      id\n      organizationId\n      dsn\n      traceUrlTemplate\n    }\n  }\n": typeof types.ProjectOrganizationDocument,
    "\n  query ProjectKeys($projectId: ID!) {\n    projectKeys(projectId: $projectId) {\n      id\n      publicKey\n      enabled\n      rateLimitPerSecond\n      createdAt\n      disabledAt\n    }\n  }\n": typeof types.ProjectKeysDocument,
    "\n  query UploadTokens($projectId: ID!) {\n    uploadTokens(projectId: $projectId) {\n      id\n      name\n      prefix\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n": typeof types.UploadTokensDocument,
    "\n  query Members($organizationId: ID!) {\n    members(organizationId: $organizationId) {\n      userId\n      email\n      role\n      joinedAt\n      emailVerified\n      twoFactorEnabled\n    }\n  }\n": typeof types.MembersDocument,
    "\n  query Invitations($organizationId: ID!) {\n    invitations(organizationId: $organizationId) {\n      id\n      email\n      role\n      createdAt\n      expiresAt\n    }\n  }\n": typeof types.InvitationsDocument,
    "\n  query ApiTokens {\n    apiTokens {\n      id\n      name\n      scopes\n      prefix\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n": typeof types.ApiTokensDocument,
    "\n    mutation RotateProjectKey($projectId: ID!, $keepOldKeys: Boolean!) {\n      rotateProjectKey(projectId: $projectId, keepOldKeys: $keepOldKeys) {\n        id\n      }\n    }\n  ": typeof types.RotateProjectKeyDocument,
    "\n    mutation DisableProjectKey($projectId: ID!, $keyId: ID!) {\n      disableProjectKey(projectId: $projectId, keyId: $keyId) {\n        id\n      }\n    }\n  ": typeof types.DisableProjectKeyDocument,
    "\n    mutation UpdateProjectKeyRateLimit($projectId: ID!, $keyId: ID!, $rateLimitPerSecond: Int) {\n      updateProjectKey(projectId: $projectId, keyId: $keyId, rateLimitPerSecond: $rateLimitPerSecond) {\n        id\n        rateLimitPerSecond\n      }\n    }\n  ": typeof types.UpdateProjectKeyRateLimitDocument,
    "\n    mutation CreateUploadToken($projectId: ID!, $name: String!) {\n      createUploadToken(projectId: $projectId, name: $name) {\n        token\n        uploadToken {\n          name\n        }\n      }\n    }\n  ": typeof types.CreateUploadTokenDocument,
    "\n    mutation RevokeUploadToken($projectId: ID!, $id: ID!) {\n      revokeUploadToken(projectId: $projectId, id: $id) {\n        id\n      }\n    }\n  ": typeof types.RevokeUploadTokenDocument,
    "\n    mutation InviteMember($organizationId: ID!, $email: String!, $role: MemberRole!) {\n      inviteMember(organizationId: $organizationId, email: $email, role: $role) {\n        emailSent\n        link\n        invitation {\n          email\n        }\n      }\n    }\n  ": typeof types.InviteMemberDocument,
    "\n    mutation RevokeInvitation($id: ID!) {\n      revokeInvitation(id: $id) {\n        id\n      }\n    }\n  ": typeof types.RevokeInvitationDocument,
    "\n    mutation RemoveMember($organizationId: ID!, $userId: ID!) {\n      removeMember(organizationId: $organizationId, userId: $userId)\n    }\n  ": typeof types.RemoveMemberDocument,
    "\n    mutation CreateApiToken($name: String!, $scopes: [ApiScope!]!) {\n      createApiToken(name: $name, scopes: $scopes) {\n        token\n        apiToken {\n          name\n        }\n      }\n    }\n  ": typeof types.CreateApiTokenDocument,
    "\n    mutation UpdateProjectTraceLink($id: ID!, $template: String) {\n      updateProjectTraceLink(id: $id, template: $template) {\n        id\n        traceUrlTemplate\n      }\n    }\n  ": typeof types.UpdateProjectTraceLinkDocument,
    "\n    mutation RevokeApiToken($id: ID!) {\n      revokeApiToken(id: $id) {\n        id\n      }\n    }\n  ": typeof types.RevokeApiTokenDocument,
    "\n  query SsoPage {\n    viewer {\n      id\n      organizations {\n        id\n        slug\n        name\n      }\n    }\n  }\n": typeof types.SsoPageDocument,
    "\n  query SsoSettings($organizationId: ID!) {\n    ssoSettings(organizationId: $organizationId) {\n      issuer\n      clientId\n      clientSecretHint\n      emailDomains\n      defaultRole\n      requireSso\n      callbackUrl\n      updatedAt\n    }\n  }\n": typeof types.SsoSettingsDocument,
    "\n  mutation SaveSsoSettings($organizationId: ID!, $input: SsoSettingsInput!) {\n    saveSsoSettings(organizationId: $organizationId, input: $input) {\n      issuer\n    }\n  }\n": typeof types.SaveSsoSettingsDocument,
    "\n  mutation DeleteSsoSettings($organizationId: ID!) {\n    deleteSsoSettings(organizationId: $organizationId)\n  }\n": typeof types.DeleteSsoSettingsDocument,
    "\n  query TwoFactorStatus {\n    twoFactor {\n      enabled\n      enabledAt\n      recoveryCodesLeft\n    }\n    viewer {\n      email\n      twoFactorEnrolmentRequired\n    }\n  }\n": typeof types.TwoFactorStatusDocument,
    "\n  mutation StartTwoFactorEnrolment {\n    startTwoFactorEnrolment {\n      secret\n      qrCodeDataUrl\n    }\n  }\n": typeof types.StartTwoFactorEnrolmentDocument,
    "\n  mutation ConfirmTwoFactor($code: String!) {\n    confirmTwoFactor(code: $code)\n  }\n": typeof types.ConfirmTwoFactorDocument,
    "\n  mutation DisableTwoFactor($code: String!) {\n    disableTwoFactor(code: $code)\n  }\n": typeof types.DisableTwoFactorDocument,
    "\n  mutation RegenerateRecoveryCodes($code: String!) {\n    regenerateRecoveryCodes(code: $code)\n  }\n": typeof types.RegenerateRecoveryCodesDocument,
    "\n  fragment PlanFields on PlanInfo {\n    id\n    name\n    eventsPerMonth\n    logsPerMonth\n    retentionDays\n    releaseHealth\n  }\n": typeof types.PlanFieldsFragmentDoc,
    "\n  query AdminViewer {\n    viewer {\n      id\n      isInstanceAdmin\n    }\n  }\n": typeof types.AdminViewerDocument,
    "\n  query ProjectSetup($projectId: ID!) {\n    project(id: $projectId) {\n      id\n      organizationId\n    }\n    viewer {\n      id\n      organizations {\n        id\n        plan\n      }\n    }\n    plans {\n      id\n      name\n      releaseHealth\n    }\n    issues(projectId: $projectId, first: 1) {\n      totalCount\n    }\n  }\n": typeof types.ProjectSetupDocument,
    "\n  query AlertMutePage($projectId: ID!, $issueId: ID!, $withIssue: Boolean!) {\n    alertRules(projectId: $projectId) {\n      id\n      kind\n      mutedUntil\n      channel {\n        type\n      }\n    }\n    issue(id: $issueId) @include(if: $withIssue) {\n      id\n      projectId\n      title\n      alertsMutedUntil\n    }\n  }\n": typeof types.AlertMutePageDocument,
    "\n  mutation MuteAlertRuleFromLink($id: ID!, $until: String) {\n    muteAlertRule(id: $id, until: $until) {\n      id\n    }\n  }\n": typeof types.MuteAlertRuleFromLinkDocument,
    "\n  mutation MuteIssueAlerts($issueId: ID!, $until: String) {\n    muteIssueAlerts(issueId: $issueId, until: $until) {\n      id\n    }\n  }\n": typeof types.MuteIssueAlertsDocument,
    "\n  query Billing($projectId: ID!) {\n    project(id: $projectId) {\n      organizationId\n    }\n  }\n": typeof types.BillingDocument,
    "\n  query BillingDetails($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      name\n      slug\n      usage {\n        period\n        periodEnd\n        events {\n          used\n          limit\n          remaining\n        }\n        logs {\n          used\n          limit\n          remaining\n        }\n      }\n    }\n    billing(organizationId: $organizationId) {\n      configured\n      plan\n      availablePlans\n      status\n      currentPeriodEnd\n      cancelAtPeriodEnd\n      pastDueSince\n      graceEndsAt\n      hasBillingAccount\n    }\n    plans {\n      ...PlanFields\n    }\n  }\n": typeof types.BillingDetailsDocument,
    "\n  mutation CreateCheckoutSession($organizationId: ID!, $plan: String!) {\n    createCheckoutSession(organizationId: $organizationId, plan: $plan) {\n      url\n    }\n  }\n": typeof types.CreateCheckoutSessionDocument,
    "\n  mutation CreateBillingPortalSession($organizationId: ID!) {\n    createBillingPortalSession(organizationId: $organizationId) {\n      url\n    }\n  }\n": typeof types.CreateBillingPortalSessionDocument,
    "\n  query ProjectFeedback($projectId: ID!, $first: Int!, $after: String) {\n    feedback(projectId: $projectId, first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        message\n        email\n        name\n        url\n        eventId\n        receivedAt\n        issue {\n          id\n          title\n        }\n        event {\n          eventId\n          release\n          environment\n          url\n        }\n      }\n    }\n  }\n": typeof types.ProjectFeedbackDocument,
    "\n  query ProjectLogs($projectId: ID!, $filter: LogFilter!, $first: Int!, $after: String) {\n    logs(projectId: $projectId, filter: $filter, first: $first, after: $after) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        level\n        message\n        context\n        tags\n        environment\n        release\n        timestamp\n      }\n    }\n  }\n": typeof types.ProjectLogsDocument,
    "\n  query ProjectMonitors($projectId: ID!) {\n    monitors(projectId: $projectId) {\n      id\n      slug\n      name\n      kind\n      crontab\n      timezone\n      intervalMinutes\n      url\n      paused\n      status\n      checkinMarginMinutes\n      maxRuntimeMinutes\n      failureTolerance\n      recoveryThreshold\n      timeoutSeconds\n      environments {\n        environment\n        status\n        expectedAt\n      }\n      checkIns(first: 90) {\n        id\n        status\n        durationMs\n        statusCode\n        error\n        tlsExpiresAt\n        createdAt\n      }\n    }\n  }\n": typeof types.ProjectMonitorsDocument,
    "\n  mutation CreateMonitorFromPage($projectId: ID!, $kind: MonitorKind!, $input: MonitorInput!) {\n    createMonitor(projectId: $projectId, kind: $kind, input: $input) {\n      id\n    }\n  }\n": typeof types.CreateMonitorFromPageDocument,
    "\n  mutation UpdateMonitorFromPage($id: ID!, $input: MonitorInput!) {\n    updateMonitor(id: $id, input: $input) {\n      id\n    }\n  }\n": typeof types.UpdateMonitorFromPageDocument,
    "\n  mutation PauseMonitorFromPage($id: ID!, $paused: Boolean!) {\n    pauseMonitor(id: $id, paused: $paused) {\n      id\n    }\n  }\n": typeof types.PauseMonitorFromPageDocument,
    "\n  mutation DeleteMonitorFromPage($id: ID!) {\n    deleteMonitor(id: $id)\n  }\n": typeof types.DeleteMonitorFromPageDocument,
    "\n  query ProjectVitals($projectId: ID!, $filter: VitalsFilter!, $interval: VitalsInterval!, $first: Int!) {\n    vitals(projectId: $projectId, filter: $filter) {\n      from\n      to\n      pageViews\n      metrics {\n        metric\n        count\n        p75\n        goodShare\n        needsImprovementShare\n        poorShare\n        thresholds {\n          good\n          poor\n        }\n      }\n    }\n    vitalsByUrl(projectId: $projectId, filter: $filter, first: $first) {\n      url\n      pageViews\n      metrics {\n        metric\n        p75\n      }\n    }\n    vitalsTimeSeries(projectId: $projectId, filter: $filter, interval: $interval) {\n      interval\n      buckets {\n        start\n        pageViews\n        lcp\n        inp\n        cls\n        fcp\n        ttfb\n      }\n    }\n    releases(projectId: $projectId, first: 100) {\n      version\n      environment\n    }\n  }\n": typeof types.ProjectVitalsDocument,
    "\n  query ProjectReleases($projectId: ID!, $first: Int!) {\n    project(id: $projectId) {\n      id\n      organizationId\n    }\n    viewer {\n      id\n      organizations {\n        id\n        slug\n        name\n        plan\n      }\n    }\n    plans {\n      ...PlanFields\n    }\n    releases(projectId: $projectId, first: $first) {\n      id\n      version\n      environment\n      deployedAt\n      ...ReleaseVersionFields\n    }\n  }\n": typeof types.ProjectReleasesDocument,
    "\n  query ProjectReleaseHealth($projectId: ID!, $first: Int!) {\n    releases(projectId: $projectId, first: $first) {\n      id\n      version\n      environment\n      deployedAt\n      ...ReleaseVersionFields\n      health {\n        ...ReleaseHealthFields\n      }\n    }\n  }\n": typeof types.ProjectReleaseHealthDocument,
    "\n  mutation MarkRelease($projectId: ID!, $version: String!, $environment: String) {\n    markRelease(projectId: $projectId, version: $version, environment: $environment) {\n      id\n      version\n      environment\n      deployedAt\n    }\n  }\n": typeof types.MarkReleaseDocument,
    "\n  query Project($id: ID!) {\n    project(id: $id) {\n      id\n      name\n      dsn\n      organizationId\n    }\n  }\n": typeof types.ProjectDocument,
    "\n  mutation CreateProject($organizationId: ID!, $name: String!) {\n    createProject(organizationId: $organizationId, name: $name) {\n      id\n    }\n  }\n": typeof types.CreateProjectDocument,
    "\n  query Viewer {\n    viewer {\n      id\n      email\n      isInstanceAdmin\n      twoFactorEnrolmentRequired\n      organizations {\n        id\n        slug\n        name\n        plan\n        projects {\n          id\n          name\n        }\n      }\n    }\n  }\n": typeof types.ViewerDocument,
    "\n  query FirstProject {\n    viewer {\n      id\n      organizations {\n        id\n        projects {\n          id\n        }\n      }\n    }\n  }\n": typeof types.FirstProjectDocument,
    "\n  mutation RequestPasswordReset($email: String!) {\n    requestPasswordReset(email: $email) {\n      emailConfigured\n    }\n  }\n": typeof types.RequestPasswordResetDocument,
    "\n  query InvitationPreview($token: String!) {\n    invitation(token: $token) {\n      organizationName\n      email\n      role\n      status\n      expiresAt\n    }\n  }\n": typeof types.InvitationPreviewDocument,
    "\n  mutation AcceptInvitation($token: String!) {\n    acceptInvitation(token: $token) {\n      id\n      projects {\n        id\n      }\n    }\n  }\n": typeof types.AcceptInvitationDocument,
    "\n  mutation SignupWithInvitation($token: String!, $password: String!) {\n    signupWithInvitation(token: $token, password: $password) {\n      token\n    }\n  }\n": typeof types.SignupWithInvitationDocument,
    "\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      session {\n        token\n      }\n      twoFactorChallenge\n      twoFactorEnrolmentRequired\n    }\n  }\n": typeof types.SignInDocument,
    "\n  mutation SignInWithTwoFactor($challenge: String!, $code: String!) {\n    signInWithTwoFactor(challenge: $challenge, code: $code) {\n      token\n      user {\n        twoFactorEnabled\n      }\n    }\n  }\n": typeof types.SignInWithTwoFactorDocument,
    "\n  mutation StartSsoLogin($email: String!) {\n    startSsoLogin(email: $email) {\n      authorizationUrl\n      state\n    }\n  }\n": typeof types.StartSsoLoginDocument,
    "\n  mutation Logout {\n    logout\n  }\n": typeof types.LogoutDocument,
    "\n  query OrgProjects {\n    viewer {\n      id\n      organizations {\n        slug\n        projects {\n          id\n        }\n      }\n    }\n  }\n": typeof types.OrgProjectsDocument,
    "\n  query PasswordReset($token: String!) {\n    passwordReset(token: $token) {\n      email\n    }\n  }\n": typeof types.PasswordResetDocument,
    "\n  mutation ResetPassword($token: String!, $newPassword: String!) {\n    resetPassword(token: $token, newPassword: $newPassword)\n  }\n": typeof types.ResetPasswordDocument,
    "\n  mutation Signup($email: String!, $password: String!, $organizationName: String!) {\n    signup(email: $email, password: $password, organizationName: $organizationName) {\n      token\n      checkEmail\n    }\n  }\n": typeof types.SignupDocument,
    "\n  mutation CompleteSsoLogin($parameters: String!) {\n    completeSsoLogin(parameters: $parameters) {\n      token\n    }\n  }\n": typeof types.CompleteSsoLoginDocument,
    "\n  mutation ConfirmEmailAddress($token: String!) {\n    confirmEmailAddress(token: $token) {\n      email\n      organizationSlug\n    }\n  }\n": typeof types.ConfirmEmailAddressDocument,
};
const documents: Documents = {
    "\n  query Account {\n    viewer {\n      id\n      email\n      emailVerified\n      pendingEmail\n    }\n    sessions {\n      id\n      createdAt\n      expiresAt\n      current\n    }\n  }\n": types.AccountDocument,
    "\n  mutation ChangeEmail($currentPassword: String!, $newEmail: String!) {\n    changeEmail(currentPassword: $currentPassword, newEmail: $newEmail) {\n      changed\n      pendingEmail\n      user {\n        email\n      }\n    }\n  }\n": types.ChangeEmailDocument,
    "\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!, $revokeApiTokens: Boolean!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword, revokeApiTokens: $revokeApiTokens) {\n      token\n    }\n  }\n": types.ChangePasswordDocument,
    "\n  mutation RevokeSession($id: ID!) {\n    revokeSession(id: $id)\n  }\n": types.RevokeSessionDocument,
    "\n  mutation RevokeOtherSessions {\n    revokeOtherSessions\n  }\n": types.RevokeOtherSessionsDocument,
    "\n  mutation ConfirmEmailChange($token: String!) {\n    confirmEmailChange(token: $token) {\n      email\n    }\n  }\n": types.ConfirmEmailChangeDocument,
    "\n  mutation ResendEmailConfirmation {\n    resendEmailConfirmation\n  }\n": types.ResendEmailConfirmationDocument,
    "\n  query AdminOrganizations($after: String) {\n    adminOrganizations(first: 50, after: $after) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        name\n        slug\n        plan\n        memberCount\n        projectCount\n        liveSubscription\n        events {\n          used\n          limit\n        }\n        logs {\n          used\n          limit\n        }\n      }\n    }\n    plans {\n      id\n      name\n    }\n  }\n": types.AdminOrganizationsDocument,
    "\n  mutation AdminSetOrganizationPlan($organizationId: ID!, $plan: String!, $force: Boolean) {\n    adminSetOrganizationPlan(organizationId: $organizationId, plan: $plan, force: $force) {\n      planBefore\n      overrodeSubscription\n      organization {\n        slug\n        plan\n      }\n    }\n  }\n": types.AdminSetOrganizationPlanDocument,
    "\n  query AdminDeadLetters {\n    adminDeadLetters(first: 100) {\n      totalCount\n      nodes {\n        id\n        topic\n        kind\n        attempts\n        firstFailedAt\n        lastFailedAt\n        reason\n      }\n    }\n  }\n": types.AdminDeadLettersDocument,
    "\n  mutation AdminReplayDeadLetters($ids: [ID!], $all: Boolean) {\n    adminReplayDeadLetters(ids: $ids, all: $all)\n  }\n": types.AdminReplayDeadLettersDocument,
    "\n  mutation AdminPurgeDeadLetters($olderThanDays: Int!) {\n    adminPurgeDeadLetters(olderThanDays: $olderThanDays)\n  }\n": types.AdminPurgeDeadLettersDocument,
    "\n  query AdminInstance {\n    adminInstance {\n      version\n      nodeVersion\n      databaseKind\n      databaseVersion\n      migrations {\n        name\n        timestamp\n      }\n      pendingMigrations\n      deadLetterCount\n      smtp {\n        configured\n        host\n        port\n        secure\n        from\n      }\n      stripe {\n        configured\n        secretKey\n        webhookSecret\n        pricePro\n        priceBusiness\n        mode\n      }\n    }\n  }\n": types.AdminInstanceDocument,
    "\n  mutation AdminSendTestEmail {\n    adminSendTestEmail {\n      to\n      response\n    }\n  }\n": types.AdminSendTestEmailDocument,
    "\n  query AlertRules($projectId: ID!, $deliveries: Int!) {\n    alertRules(projectId: $projectId) {\n      id\n      kind\n      enabled\n      createdAt\n      secret\n      masked\n      threshold\n      windowMinutes\n      query\n      actionIntervalMinutes\n      digestMinutes\n      mutedUntil\n      filter {\n        environments\n        minLevel\n        tags {\n          key\n          value\n        }\n        release\n        assigned\n      }\n      channel {\n        type\n        url\n        email\n      }\n      deliveries(first: $deliveries) {\n        id\n        kind\n        status\n        attempts\n        lastError\n        lastStatus\n        createdAt\n        deliveredAt\n        nextAttemptAt\n        response\n        test\n      }\n      failing\n      recentFailures\n    }\n    alertChannels {\n      type\n      name\n      target\n      available\n      unavailableReason\n      help\n    }\n  }\n": types.AlertRulesDocument,
    "\n  mutation CreateAlertRule(\n    $projectId: ID!\n    $kind: AlertKind!\n    $channel: AlertChannelInput!\n    $threshold: Int\n    $windowMinutes: Int\n    $query: String\n    $filter: AlertFilterInput\n    $actionIntervalMinutes: Int\n    $digestMinutes: Int\n  ) {\n    createAlertRule(\n      projectId: $projectId\n      kind: $kind\n      channel: $channel\n      threshold: $threshold\n      windowMinutes: $windowMinutes\n      query: $query\n      filter: $filter\n      actionIntervalMinutes: $actionIntervalMinutes\n      digestMinutes: $digestMinutes\n    ) {\n      id\n    }\n  }\n": types.CreateAlertRuleDocument,
    "\n  mutation UpdateAlertRuleSettings(\n    $id: ID!\n    $kind: AlertKind!\n    $threshold: Int\n    $windowMinutes: Int\n    $query: String\n    $filter: AlertFilterInput\n    $actionIntervalMinutes: Int\n    $digestMinutes: Int\n  ) {\n    updateAlertRule(\n      id: $id\n      kind: $kind\n      threshold: $threshold\n      windowMinutes: $windowMinutes\n      query: $query\n      filter: $filter\n      actionIntervalMinutes: $actionIntervalMinutes\n      digestMinutes: $digestMinutes\n    ) {\n      id\n    }\n  }\n": types.UpdateAlertRuleSettingsDocument,
    "\n  mutation MuteAlertRule($id: ID!, $until: String) {\n    muteAlertRule(id: $id, until: $until) {\n      id\n      mutedUntil\n    }\n  }\n": types.MuteAlertRuleDocument,
    "\n  mutation UpdateAlertRule($id: ID!, $enabled: Boolean) {\n    updateAlertRule(id: $id, enabled: $enabled) {\n      id\n    }\n  }\n": types.UpdateAlertRuleDocument,
    "\n  mutation TestAlertRule($id: ID!) {\n    testAlertRule(id: $id) {\n      id\n      kind\n      status\n      attempts\n      lastError\n      lastStatus\n      response\n      test\n      createdAt\n      deliveredAt\n      nextAttemptAt\n    }\n  }\n": types.TestAlertRuleDocument,
    "\n  mutation DeleteAlertRule($id: ID!) {\n    deleteAlertRule(id: $id)\n  }\n": types.DeleteAlertRuleDocument,
    "\n  query AuditOrganizations {\n    viewer {\n      id\n      organizations {\n        id\n        slug\n        name\n      }\n    }\n  }\n": types.AuditOrganizationsDocument,
    "\n  query AuditLog($organizationId: ID!, $first: Int!, $after: String, $filter: AuditLogFilter) {\n    auditLog(organizationId: $organizationId, first: $first, after: $after, filter: $filter) {\n      nodes {\n        id\n        action\n        time\n        actor {\n          type\n          label\n          userId\n          apiTokenId\n          apiTokenName\n          apiTokenPrefix\n        }\n        target {\n          type\n          id\n          label\n        }\n        changes\n        clientAddress\n        userAgent\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.AuditLogDocument,
    "\n  fragment StackFrameFields on Frame {\n    filename\n    function\n    lineno\n    colno\n    inApp\n    minified {\n      filename\n      function\n      lineno\n      colno\n    }\n    context {\n      pre\n      line\n      post\n    }\n    vars {\n      name\n      value\n    }\n  }\n": types.StackFrameFieldsFragmentDoc,
    "\n  fragment EventDetailFields on Event {\n    id\n    eventId\n    message\n    logMessage\n    type\n    level\n    handled\n    environment\n    release\n    url\n    timestamp\n    user\n    tags {\n      key\n      value\n    }\n    context\n    sdk {\n      name\n      version\n    }\n    fingerprint\n    # The thrown error first (its frames are the event's), then its causes.\n    exceptions {\n      type\n      value\n      frames {\n        ...StackFrameFields\n      }\n    }\n    breadcrumbs {\n      timestamp\n      category\n      message\n      level\n      data\n    }\n    request {\n      method\n      url\n      queryString\n      headers {\n        name\n        value\n      }\n      data\n    }\n    componentStack\n    navigation {\n      oldest\n      older\n      newer\n      latest\n    }\n  }\n": types.EventDetailFieldsFragmentDoc,
    "\n  query EventJson($issueId: ID!, $eventId: ID!) {\n    issue(id: $issueId) {\n      id\n      projectId\n      event(id: $eventId) {\n        json\n      }\n    }\n  }\n": types.EventJsonDocument,
    "\n  query IssueDetail(\n    $id: ID!\n    $eventsFirst: Int!\n    $eventsAfter: String\n    $range: SeriesRange!\n    $eventId: ID!\n    $picked: Boolean!\n    $activityFirst: Int!\n    $projectId: ID!\n  ) {\n    issue(id: $id) {\n      id\n      projectId\n      title\n      type\n      culprit\n      status\n      level\n      isRegression\n      eventCount\n      userCount\n      firstSeen\n      lastSeen\n      resolvedAt\n      snoozedUntil\n      snooze {\n        kind\n        until\n        minutes\n        forEvents\n        forUsers\n        remaining\n      }\n      discarded\n      discardedAt\n      mergedIssueCount\n      alertsMutedUntil\n      assignee {\n        id\n        email\n      }\n      activity(first: $activityFirst) {\n        id\n        kind\n        actor {\n          id\n          email\n        }\n        createdAt\n        message\n        comment {\n          id\n          body\n          createdAt\n          updatedAt\n          editable\n        }\n      }\n      resolvedInRelease {\n        version\n        environment\n        deployedAt\n      }\n      releases {\n        version\n        environment\n        firstSeen\n        lastSeen\n        eventCount\n      }\n      suspectCommits {\n        release\n        files\n        commit {\n          id\n          repository\n          authorName\n          authorEmail\n          message\n          timestamp\n        }\n      }\n      tags {\n        key\n        count\n        values {\n          value\n          count\n        }\n      }\n      series: eventSeries(range: $range) {\n        ts\n        count\n      }\n      events(first: $eventsFirst, after: $eventsAfter) {\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        nodes {\n          id\n          eventId\n          message\n          environment\n          release\n          timestamp\n          user\n        }\n      }\n      latestEvent @skip(if: $picked) {\n        ...EventDetailFields\n      }\n      # By its UUID within this issue: another issue's event answers null.\n      event(id: $eventId) @include(if: $picked) {\n        issueId\n        ...EventDetailFields\n      }\n      feedback {\n        id\n        message\n        email\n        name\n        url\n        receivedAt\n      }\n    }\n    # The assignee picker's choices: the members of the project's organization.\n    project(id: $projectId) {\n      id\n      traceUrlTemplate\n      members {\n        userId\n        email\n      }\n    }\n  }\n": types.IssueDetailDocument,
    "\n  mutation ResolveIssue($id: ID!) {\n    resolveIssue(id: $id) {\n      id\n    }\n  }\n": types.ResolveIssueDocument,
    "\n  mutation ReopenIssue($id: ID!) {\n    reopenIssue(id: $id) {\n      id\n    }\n  }\n": types.ReopenIssueDocument,
    "\n  mutation SnoozeIssue($id: ID!, $until: String, $minutes: Int, $forEvents: Int, $forUsers: Int) {\n    snoozeIssue(id: $id, until: $until, minutes: $minutes, forEvents: $forEvents, forUsers: $forUsers) {\n      id\n    }\n  }\n": types.SnoozeIssueDocument,
    "\n  mutation UnmergeIssue($id: ID!) {\n    unmergeIssue(id: $id) {\n      id\n      title\n    }\n  }\n": types.UnmergeIssueDocument,
    "\n  mutation DiscardIssue($id: ID!, $discard: Boolean!) {\n    discardIssue(id: $id, discard: $discard) {\n      id\n      discarded\n    }\n  }\n": types.DiscardIssueDocument,
    "\n  mutation AssignIssue($id: ID!, $userId: ID) {\n    assignIssue(id: $id, userId: $userId) {\n      id\n    }\n  }\n": types.AssignIssueDocument,
    "\n  mutation AddComment($issueId: ID!, $body: String!) {\n    addComment(issueId: $issueId, body: $body) {\n      id\n    }\n  }\n": types.AddCommentDocument,
    "\n  mutation UpdateComment($id: ID!, $body: String!) {\n    updateComment(id: $id, body: $body) {\n      id\n    }\n  }\n": types.UpdateCommentDocument,
    "\n  mutation DeleteComment($id: ID!) {\n    deleteComment(id: $id)\n  }\n": types.DeleteCommentDocument,
    "\n  query ProjectIssues(\n    $projectId: ID!\n    $status: IssueStatus\n    $discarded: Boolean\n    $first: Int!\n    $after: String\n    $search: String\n    $query: String\n    $environment: String\n    $release: String\n    $sort: IssueSort!\n    $assigned: IssueAssignedFilter\n  ) {\n    issues(\n      projectId: $projectId\n      status: $status\n      discarded: $discarded\n      first: $first\n      after: $after\n      search: $search\n      query: $query\n      environment: $environment\n      release: $release\n      sort: $sort\n      assigned: $assigned\n    ) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        title\n        culprit\n        level\n        status\n        isRegression\n        eventCount\n        userCount\n        lastSeen\n        assignee {\n          id\n          email\n        }\n        series(hours: 24) {\n          ts\n          count\n        }\n      }\n    }\n    all: issues(projectId: $projectId, first: 1) {\n      totalCount\n    }\n    allDiscarded: issues(projectId: $projectId, first: 1, discarded: true) {\n      totalCount\n    }\n    savedSearches(projectId: $projectId) {\n      id\n      name\n      query\n    }\n  }\n": types.ProjectIssuesDocument,
    "\n  mutation CreateSavedSearch($projectId: ID!, $name: String!, $query: String!) {\n    createSavedSearch(projectId: $projectId, name: $name, query: $query) {\n      id\n    }\n  }\n": types.CreateSavedSearchDocument,
    "\n  mutation DeleteSavedSearch($id: ID!) {\n    deleteSavedSearch(id: $id)\n  }\n": types.DeleteSavedSearchDocument,
    "\n  mutation ResolveIssues($ids: [ID!]!) {\n    resolveIssues(ids: $ids) {\n      id\n    }\n  }\n": types.ResolveIssuesDocument,
    "\n  mutation MergeIssues($sourceId: ID!, $targetId: ID!) {\n    mergeIssues(sourceId: $sourceId, targetId: $targetId) {\n      id\n      title\n    }\n  }\n": types.MergeIssuesDocument,
    "\n  query OrganizationsOfViewer {\n    viewer {\n      id\n      twoFactorEnabled\n      organizations {\n        id\n        slug\n      }\n    }\n  }\n": types.OrganizationsOfViewerDocument,
    "\n  query OrganizationSettings($id: ID!) {\n    organization(id: $id) {\n      id\n      name\n      slug\n      plan\n      requireTwoFactor\n      projects {\n        id\n        name\n      }\n      usage {\n        period\n        periodEnd\n        events {\n          used\n          limit\n          remaining\n        }\n        logs {\n          used\n          limit\n          remaining\n        }\n      }\n    }\n  }\n": types.OrganizationSettingsDocument,
    "\n  mutation RenameOrganization($id: ID!, $name: String!) {\n    renameOrganization(id: $id, name: $name) {\n      id\n      name\n    }\n  }\n": types.RenameOrganizationDocument,
    "\n  mutation SetOrganizationRequireTwoFactor($id: ID!, $required: Boolean!) {\n    setOrganizationRequireTwoFactor(organizationId: $id, required: $required) {\n      id\n      requireTwoFactor\n    }\n  }\n": types.SetOrganizationRequireTwoFactorDocument,
    "\n  fragment ReleaseHealthFields on ReleaseHealth {\n    issuesIntroduced\n    regressions\n    basis\n    crashFreeSessions\n    sessions {\n      started\n    }\n    usersSeen\n    crashedUsers\n    crashFreeUsers\n    windowEvents\n    enoughData\n    eventsPerHour\n    previousVersion\n    previousIssuesIntroduced\n    previousRegressions\n    previousCrashFreeUsers\n    previousEventsPerHour\n    eventsPerHourRatio\n  }\n": types.ReleaseHealthFieldsFragmentDoc,
    "\n  fragment ReleaseIssueFields on ReleaseIssueList {\n    totalCount\n    nodes {\n      environments\n      at\n      issue {\n        id\n        title\n        culprit\n        level\n        status\n        isRegression\n        eventCount\n        userCount\n        lastSeen\n      }\n    }\n  }\n": types.ReleaseIssueFieldsFragmentDoc,
    "\n  query ReleaseDetail($projectId: ID!, $version: String!, $issues: Int!, $files: Int!) {\n    project(id: $projectId) {\n      id\n      organizationId\n    }\n    viewer {\n      id\n      organizations {\n        id\n        plan\n      }\n    }\n    plans {\n      ...PlanFields\n    }\n    release(projectId: $projectId, version: $version) {\n      version\n      dateCreated\n      dateReleased\n      deploys {\n        id\n        environment\n        deployedAt\n      }\n      newIssues(first: $issues) {\n        ...ReleaseIssueFields\n      }\n      regressedIssues(first: $issues) {\n        ...ReleaseIssueFields\n      }\n      resolvedIssues(first: $issues) {\n        ...ReleaseIssueFields\n      }\n      sourceMaps(first: $files) {\n        totalCount\n        totalBytes\n        nodes {\n          filename\n          sizeBytes\n          uploadedAt\n        }\n      }\n      artifactBundles(first: 25) {\n        checksum\n        dist\n        fileCount\n        assembledAt\n      }\n      commits(first: 100) {\n        id\n        repository\n        authorName\n        authorEmail\n        message\n        timestamp\n      }\n    }\n  }\n": types.ReleaseDetailDocument,
    "\n  query ReleaseDetailHealth($projectId: ID!, $version: String!) {\n    release(projectId: $projectId, version: $version) {\n      deploys {\n        id\n        health {\n          ...ReleaseHealthFields\n        }\n      }\n    }\n  }\n": types.ReleaseDetailHealthDocument,
    "\n  fragment ReleaseVersionFields on Release {\n    dateReleased\n    commits {\n      id\n      repository\n      authorName\n      authorEmail\n      message\n      timestamp\n    }\n  }\n": types.ReleaseVersionFieldsFragmentDoc,
    "\n  query UnregisteredReleases($projectId: ID!) {\n    unregisteredReleases(projectId: $projectId, first: 50) {\n      version\n      environments\n      firstSeen\n      lastSeen\n      eventCount\n    }\n  }\n": types.UnregisteredReleasesDocument,
    "\n  query ProjectInboundFilters($projectId: ID!) {\n    projectInboundFilters(projectId: $projectId) {\n      projectId\n      browserExtensions\n      localhost\n      legacyBrowsers\n      legacyBrowserMinVersions {\n        browser\n        minVersion\n      }\n      webCrawlers\n      errorMessages\n      releases\n      dropped {\n        filter\n        dropped\n      }\n    }\n  }\n": types.ProjectInboundFiltersDocument,
    "\n  mutation UpdateProjectInboundFilters(\n    $projectId: ID!\n    $input: ProjectInboundFiltersInput!\n    $confirmDropAll: Boolean!\n  ) {\n    updateProjectInboundFilters(projectId: $projectId, input: $input, confirmDropAll: $confirmDropAll) {\n      projectId\n    }\n  }\n": types.UpdateProjectInboundFiltersDocument,
    "\n  query ProjectPrivacy($projectId: ID!) {\n    project(id: $projectId) {\n      id\n      privacy {\n        scrubDefaults\n        sensitiveFields\n        scrubIpAddresses\n      }\n    }\n    previewScrubbing(projectId: $projectId) {\n      sample\n      event\n    }\n  }\n": types.ProjectPrivacyDocument,
    "\n  query PreviewScrubbing($projectId: ID!, $sample: String, $draft: ProjectPrivacyInput) {\n    previewScrubbing(projectId: $projectId, sample: $sample, draft: $draft) {\n      sample\n      event\n    }\n  }\n": types.PreviewScrubbingDocument,
    "\n  mutation UpdateProjectPrivacy($id: ID!, $input: ProjectPrivacyInput!) {\n    updateProjectPrivacy(id: $id, input: $input) {\n      id\n      privacy {\n        scrubDefaults\n        sensitiveFields\n        scrubIpAddresses\n      }\n    }\n  }\n": types.UpdateProjectPrivacyDocument,
    "\n  query ProjectOrganization($id: ID!) {\n    project(id: $id) {\n      id\n      organizationId\n      dsn\n      traceUrlTemplate\n    }\n  }\n": types.ProjectOrganizationDocument,
    "\n  query ProjectKeys($projectId: ID!) {\n    projectKeys(projectId: $projectId) {\n      id\n      publicKey\n      enabled\n      rateLimitPerSecond\n      createdAt\n      disabledAt\n    }\n  }\n": types.ProjectKeysDocument,
    "\n  query UploadTokens($projectId: ID!) {\n    uploadTokens(projectId: $projectId) {\n      id\n      name\n      prefix\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n": types.UploadTokensDocument,
    "\n  query Members($organizationId: ID!) {\n    members(organizationId: $organizationId) {\n      userId\n      email\n      role\n      joinedAt\n      emailVerified\n      twoFactorEnabled\n    }\n  }\n": types.MembersDocument,
    "\n  query Invitations($organizationId: ID!) {\n    invitations(organizationId: $organizationId) {\n      id\n      email\n      role\n      createdAt\n      expiresAt\n    }\n  }\n": types.InvitationsDocument,
    "\n  query ApiTokens {\n    apiTokens {\n      id\n      name\n      scopes\n      prefix\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n": types.ApiTokensDocument,
    "\n    mutation RotateProjectKey($projectId: ID!, $keepOldKeys: Boolean!) {\n      rotateProjectKey(projectId: $projectId, keepOldKeys: $keepOldKeys) {\n        id\n      }\n    }\n  ": types.RotateProjectKeyDocument,
    "\n    mutation DisableProjectKey($projectId: ID!, $keyId: ID!) {\n      disableProjectKey(projectId: $projectId, keyId: $keyId) {\n        id\n      }\n    }\n  ": types.DisableProjectKeyDocument,
    "\n    mutation UpdateProjectKeyRateLimit($projectId: ID!, $keyId: ID!, $rateLimitPerSecond: Int) {\n      updateProjectKey(projectId: $projectId, keyId: $keyId, rateLimitPerSecond: $rateLimitPerSecond) {\n        id\n        rateLimitPerSecond\n      }\n    }\n  ": types.UpdateProjectKeyRateLimitDocument,
    "\n    mutation CreateUploadToken($projectId: ID!, $name: String!) {\n      createUploadToken(projectId: $projectId, name: $name) {\n        token\n        uploadToken {\n          name\n        }\n      }\n    }\n  ": types.CreateUploadTokenDocument,
    "\n    mutation RevokeUploadToken($projectId: ID!, $id: ID!) {\n      revokeUploadToken(projectId: $projectId, id: $id) {\n        id\n      }\n    }\n  ": types.RevokeUploadTokenDocument,
    "\n    mutation InviteMember($organizationId: ID!, $email: String!, $role: MemberRole!) {\n      inviteMember(organizationId: $organizationId, email: $email, role: $role) {\n        emailSent\n        link\n        invitation {\n          email\n        }\n      }\n    }\n  ": types.InviteMemberDocument,
    "\n    mutation RevokeInvitation($id: ID!) {\n      revokeInvitation(id: $id) {\n        id\n      }\n    }\n  ": types.RevokeInvitationDocument,
    "\n    mutation RemoveMember($organizationId: ID!, $userId: ID!) {\n      removeMember(organizationId: $organizationId, userId: $userId)\n    }\n  ": types.RemoveMemberDocument,
    "\n    mutation CreateApiToken($name: String!, $scopes: [ApiScope!]!) {\n      createApiToken(name: $name, scopes: $scopes) {\n        token\n        apiToken {\n          name\n        }\n      }\n    }\n  ": types.CreateApiTokenDocument,
    "\n    mutation UpdateProjectTraceLink($id: ID!, $template: String) {\n      updateProjectTraceLink(id: $id, template: $template) {\n        id\n        traceUrlTemplate\n      }\n    }\n  ": types.UpdateProjectTraceLinkDocument,
    "\n    mutation RevokeApiToken($id: ID!) {\n      revokeApiToken(id: $id) {\n        id\n      }\n    }\n  ": types.RevokeApiTokenDocument,
    "\n  query SsoPage {\n    viewer {\n      id\n      organizations {\n        id\n        slug\n        name\n      }\n    }\n  }\n": types.SsoPageDocument,
    "\n  query SsoSettings($organizationId: ID!) {\n    ssoSettings(organizationId: $organizationId) {\n      issuer\n      clientId\n      clientSecretHint\n      emailDomains\n      defaultRole\n      requireSso\n      callbackUrl\n      updatedAt\n    }\n  }\n": types.SsoSettingsDocument,
    "\n  mutation SaveSsoSettings($organizationId: ID!, $input: SsoSettingsInput!) {\n    saveSsoSettings(organizationId: $organizationId, input: $input) {\n      issuer\n    }\n  }\n": types.SaveSsoSettingsDocument,
    "\n  mutation DeleteSsoSettings($organizationId: ID!) {\n    deleteSsoSettings(organizationId: $organizationId)\n  }\n": types.DeleteSsoSettingsDocument,
    "\n  query TwoFactorStatus {\n    twoFactor {\n      enabled\n      enabledAt\n      recoveryCodesLeft\n    }\n    viewer {\n      email\n      twoFactorEnrolmentRequired\n    }\n  }\n": types.TwoFactorStatusDocument,
    "\n  mutation StartTwoFactorEnrolment {\n    startTwoFactorEnrolment {\n      secret\n      qrCodeDataUrl\n    }\n  }\n": types.StartTwoFactorEnrolmentDocument,
    "\n  mutation ConfirmTwoFactor($code: String!) {\n    confirmTwoFactor(code: $code)\n  }\n": types.ConfirmTwoFactorDocument,
    "\n  mutation DisableTwoFactor($code: String!) {\n    disableTwoFactor(code: $code)\n  }\n": types.DisableTwoFactorDocument,
    "\n  mutation RegenerateRecoveryCodes($code: String!) {\n    regenerateRecoveryCodes(code: $code)\n  }\n": types.RegenerateRecoveryCodesDocument,
    "\n  fragment PlanFields on PlanInfo {\n    id\n    name\n    eventsPerMonth\n    logsPerMonth\n    retentionDays\n    releaseHealth\n  }\n": types.PlanFieldsFragmentDoc,
    "\n  query AdminViewer {\n    viewer {\n      id\n      isInstanceAdmin\n    }\n  }\n": types.AdminViewerDocument,
    "\n  query ProjectSetup($projectId: ID!) {\n    project(id: $projectId) {\n      id\n      organizationId\n    }\n    viewer {\n      id\n      organizations {\n        id\n        plan\n      }\n    }\n    plans {\n      id\n      name\n      releaseHealth\n    }\n    issues(projectId: $projectId, first: 1) {\n      totalCount\n    }\n  }\n": types.ProjectSetupDocument,
    "\n  query AlertMutePage($projectId: ID!, $issueId: ID!, $withIssue: Boolean!) {\n    alertRules(projectId: $projectId) {\n      id\n      kind\n      mutedUntil\n      channel {\n        type\n      }\n    }\n    issue(id: $issueId) @include(if: $withIssue) {\n      id\n      projectId\n      title\n      alertsMutedUntil\n    }\n  }\n": types.AlertMutePageDocument,
    "\n  mutation MuteAlertRuleFromLink($id: ID!, $until: String) {\n    muteAlertRule(id: $id, until: $until) {\n      id\n    }\n  }\n": types.MuteAlertRuleFromLinkDocument,
    "\n  mutation MuteIssueAlerts($issueId: ID!, $until: String) {\n    muteIssueAlerts(issueId: $issueId, until: $until) {\n      id\n    }\n  }\n": types.MuteIssueAlertsDocument,
    "\n  query Billing($projectId: ID!) {\n    project(id: $projectId) {\n      organizationId\n    }\n  }\n": types.BillingDocument,
    "\n  query BillingDetails($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      name\n      slug\n      usage {\n        period\n        periodEnd\n        events {\n          used\n          limit\n          remaining\n        }\n        logs {\n          used\n          limit\n          remaining\n        }\n      }\n    }\n    billing(organizationId: $organizationId) {\n      configured\n      plan\n      availablePlans\n      status\n      currentPeriodEnd\n      cancelAtPeriodEnd\n      pastDueSince\n      graceEndsAt\n      hasBillingAccount\n    }\n    plans {\n      ...PlanFields\n    }\n  }\n": types.BillingDetailsDocument,
    "\n  mutation CreateCheckoutSession($organizationId: ID!, $plan: String!) {\n    createCheckoutSession(organizationId: $organizationId, plan: $plan) {\n      url\n    }\n  }\n": types.CreateCheckoutSessionDocument,
    "\n  mutation CreateBillingPortalSession($organizationId: ID!) {\n    createBillingPortalSession(organizationId: $organizationId) {\n      url\n    }\n  }\n": types.CreateBillingPortalSessionDocument,
    "\n  query ProjectFeedback($projectId: ID!, $first: Int!, $after: String) {\n    feedback(projectId: $projectId, first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        message\n        email\n        name\n        url\n        eventId\n        receivedAt\n        issue {\n          id\n          title\n        }\n        event {\n          eventId\n          release\n          environment\n          url\n        }\n      }\n    }\n  }\n": types.ProjectFeedbackDocument,
    "\n  query ProjectLogs($projectId: ID!, $filter: LogFilter!, $first: Int!, $after: String) {\n    logs(projectId: $projectId, filter: $filter, first: $first, after: $after) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        level\n        message\n        context\n        tags\n        environment\n        release\n        timestamp\n      }\n    }\n  }\n": types.ProjectLogsDocument,
    "\n  query ProjectMonitors($projectId: ID!) {\n    monitors(projectId: $projectId) {\n      id\n      slug\n      name\n      kind\n      crontab\n      timezone\n      intervalMinutes\n      url\n      paused\n      status\n      checkinMarginMinutes\n      maxRuntimeMinutes\n      failureTolerance\n      recoveryThreshold\n      timeoutSeconds\n      environments {\n        environment\n        status\n        expectedAt\n      }\n      checkIns(first: 90) {\n        id\n        status\n        durationMs\n        statusCode\n        error\n        tlsExpiresAt\n        createdAt\n      }\n    }\n  }\n": types.ProjectMonitorsDocument,
    "\n  mutation CreateMonitorFromPage($projectId: ID!, $kind: MonitorKind!, $input: MonitorInput!) {\n    createMonitor(projectId: $projectId, kind: $kind, input: $input) {\n      id\n    }\n  }\n": types.CreateMonitorFromPageDocument,
    "\n  mutation UpdateMonitorFromPage($id: ID!, $input: MonitorInput!) {\n    updateMonitor(id: $id, input: $input) {\n      id\n    }\n  }\n": types.UpdateMonitorFromPageDocument,
    "\n  mutation PauseMonitorFromPage($id: ID!, $paused: Boolean!) {\n    pauseMonitor(id: $id, paused: $paused) {\n      id\n    }\n  }\n": types.PauseMonitorFromPageDocument,
    "\n  mutation DeleteMonitorFromPage($id: ID!) {\n    deleteMonitor(id: $id)\n  }\n": types.DeleteMonitorFromPageDocument,
    "\n  query ProjectVitals($projectId: ID!, $filter: VitalsFilter!, $interval: VitalsInterval!, $first: Int!) {\n    vitals(projectId: $projectId, filter: $filter) {\n      from\n      to\n      pageViews\n      metrics {\n        metric\n        count\n        p75\n        goodShare\n        needsImprovementShare\n        poorShare\n        thresholds {\n          good\n          poor\n        }\n      }\n    }\n    vitalsByUrl(projectId: $projectId, filter: $filter, first: $first) {\n      url\n      pageViews\n      metrics {\n        metric\n        p75\n      }\n    }\n    vitalsTimeSeries(projectId: $projectId, filter: $filter, interval: $interval) {\n      interval\n      buckets {\n        start\n        pageViews\n        lcp\n        inp\n        cls\n        fcp\n        ttfb\n      }\n    }\n    releases(projectId: $projectId, first: 100) {\n      version\n      environment\n    }\n  }\n": types.ProjectVitalsDocument,
    "\n  query ProjectReleases($projectId: ID!, $first: Int!) {\n    project(id: $projectId) {\n      id\n      organizationId\n    }\n    viewer {\n      id\n      organizations {\n        id\n        slug\n        name\n        plan\n      }\n    }\n    plans {\n      ...PlanFields\n    }\n    releases(projectId: $projectId, first: $first) {\n      id\n      version\n      environment\n      deployedAt\n      ...ReleaseVersionFields\n    }\n  }\n": types.ProjectReleasesDocument,
    "\n  query ProjectReleaseHealth($projectId: ID!, $first: Int!) {\n    releases(projectId: $projectId, first: $first) {\n      id\n      version\n      environment\n      deployedAt\n      ...ReleaseVersionFields\n      health {\n        ...ReleaseHealthFields\n      }\n    }\n  }\n": types.ProjectReleaseHealthDocument,
    "\n  mutation MarkRelease($projectId: ID!, $version: String!, $environment: String) {\n    markRelease(projectId: $projectId, version: $version, environment: $environment) {\n      id\n      version\n      environment\n      deployedAt\n    }\n  }\n": types.MarkReleaseDocument,
    "\n  query Project($id: ID!) {\n    project(id: $id) {\n      id\n      name\n      dsn\n      organizationId\n    }\n  }\n": types.ProjectDocument,
    "\n  mutation CreateProject($organizationId: ID!, $name: String!) {\n    createProject(organizationId: $organizationId, name: $name) {\n      id\n    }\n  }\n": types.CreateProjectDocument,
    "\n  query Viewer {\n    viewer {\n      id\n      email\n      isInstanceAdmin\n      twoFactorEnrolmentRequired\n      organizations {\n        id\n        slug\n        name\n        plan\n        projects {\n          id\n          name\n        }\n      }\n    }\n  }\n": types.ViewerDocument,
    "\n  query FirstProject {\n    viewer {\n      id\n      organizations {\n        id\n        projects {\n          id\n        }\n      }\n    }\n  }\n": types.FirstProjectDocument,
    "\n  mutation RequestPasswordReset($email: String!) {\n    requestPasswordReset(email: $email) {\n      emailConfigured\n    }\n  }\n": types.RequestPasswordResetDocument,
    "\n  query InvitationPreview($token: String!) {\n    invitation(token: $token) {\n      organizationName\n      email\n      role\n      status\n      expiresAt\n    }\n  }\n": types.InvitationPreviewDocument,
    "\n  mutation AcceptInvitation($token: String!) {\n    acceptInvitation(token: $token) {\n      id\n      projects {\n        id\n      }\n    }\n  }\n": types.AcceptInvitationDocument,
    "\n  mutation SignupWithInvitation($token: String!, $password: String!) {\n    signupWithInvitation(token: $token, password: $password) {\n      token\n    }\n  }\n": types.SignupWithInvitationDocument,
    "\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      session {\n        token\n      }\n      twoFactorChallenge\n      twoFactorEnrolmentRequired\n    }\n  }\n": types.SignInDocument,
    "\n  mutation SignInWithTwoFactor($challenge: String!, $code: String!) {\n    signInWithTwoFactor(challenge: $challenge, code: $code) {\n      token\n      user {\n        twoFactorEnabled\n      }\n    }\n  }\n": types.SignInWithTwoFactorDocument,
    "\n  mutation StartSsoLogin($email: String!) {\n    startSsoLogin(email: $email) {\n      authorizationUrl\n      state\n    }\n  }\n": types.StartSsoLoginDocument,
    "\n  mutation Logout {\n    logout\n  }\n": types.LogoutDocument,
    "\n  query OrgProjects {\n    viewer {\n      id\n      organizations {\n        slug\n        projects {\n          id\n        }\n      }\n    }\n  }\n": types.OrgProjectsDocument,
    "\n  query PasswordReset($token: String!) {\n    passwordReset(token: $token) {\n      email\n    }\n  }\n": types.PasswordResetDocument,
    "\n  mutation ResetPassword($token: String!, $newPassword: String!) {\n    resetPassword(token: $token, newPassword: $newPassword)\n  }\n": types.ResetPasswordDocument,
    "\n  mutation Signup($email: String!, $password: String!, $organizationName: String!) {\n    signup(email: $email, password: $password, organizationName: $organizationName) {\n      token\n      checkEmail\n    }\n  }\n": types.SignupDocument,
    "\n  mutation CompleteSsoLogin($parameters: String!) {\n    completeSsoLogin(parameters: $parameters) {\n      token\n    }\n  }\n": types.CompleteSsoLoginDocument,
    "\n  mutation ConfirmEmailAddress($token: String!) {\n    confirmEmailAddress(token: $token) {\n      email\n      organizationSlug\n    }\n  }\n": types.ConfirmEmailAddressDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Account {\n    viewer {\n      id\n      email\n      emailVerified\n      pendingEmail\n    }\n    sessions {\n      id\n      createdAt\n      expiresAt\n      current\n    }\n  }\n"): typeof import('./graphql').AccountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChangeEmail($currentPassword: String!, $newEmail: String!) {\n    changeEmail(currentPassword: $currentPassword, newEmail: $newEmail) {\n      changed\n      pendingEmail\n      user {\n        email\n      }\n    }\n  }\n"): typeof import('./graphql').ChangeEmailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!, $revokeApiTokens: Boolean!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword, revokeApiTokens: $revokeApiTokens) {\n      token\n    }\n  }\n"): typeof import('./graphql').ChangePasswordDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeSession($id: ID!) {\n    revokeSession(id: $id)\n  }\n"): typeof import('./graphql').RevokeSessionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeOtherSessions {\n    revokeOtherSessions\n  }\n"): typeof import('./graphql').RevokeOtherSessionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConfirmEmailChange($token: String!) {\n    confirmEmailChange(token: $token) {\n      email\n    }\n  }\n"): typeof import('./graphql').ConfirmEmailChangeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResendEmailConfirmation {\n    resendEmailConfirmation\n  }\n"): typeof import('./graphql').ResendEmailConfirmationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AdminOrganizations($after: String) {\n    adminOrganizations(first: 50, after: $after) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        name\n        slug\n        plan\n        memberCount\n        projectCount\n        liveSubscription\n        events {\n          used\n          limit\n        }\n        logs {\n          used\n          limit\n        }\n      }\n    }\n    plans {\n      id\n      name\n    }\n  }\n"): typeof import('./graphql').AdminOrganizationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdminSetOrganizationPlan($organizationId: ID!, $plan: String!, $force: Boolean) {\n    adminSetOrganizationPlan(organizationId: $organizationId, plan: $plan, force: $force) {\n      planBefore\n      overrodeSubscription\n      organization {\n        slug\n        plan\n      }\n    }\n  }\n"): typeof import('./graphql').AdminSetOrganizationPlanDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AdminDeadLetters {\n    adminDeadLetters(first: 100) {\n      totalCount\n      nodes {\n        id\n        topic\n        kind\n        attempts\n        firstFailedAt\n        lastFailedAt\n        reason\n      }\n    }\n  }\n"): typeof import('./graphql').AdminDeadLettersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdminReplayDeadLetters($ids: [ID!], $all: Boolean) {\n    adminReplayDeadLetters(ids: $ids, all: $all)\n  }\n"): typeof import('./graphql').AdminReplayDeadLettersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdminPurgeDeadLetters($olderThanDays: Int!) {\n    adminPurgeDeadLetters(olderThanDays: $olderThanDays)\n  }\n"): typeof import('./graphql').AdminPurgeDeadLettersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AdminInstance {\n    adminInstance {\n      version\n      nodeVersion\n      databaseKind\n      databaseVersion\n      migrations {\n        name\n        timestamp\n      }\n      pendingMigrations\n      deadLetterCount\n      smtp {\n        configured\n        host\n        port\n        secure\n        from\n      }\n      stripe {\n        configured\n        secretKey\n        webhookSecret\n        pricePro\n        priceBusiness\n        mode\n      }\n    }\n  }\n"): typeof import('./graphql').AdminInstanceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdminSendTestEmail {\n    adminSendTestEmail {\n      to\n      response\n    }\n  }\n"): typeof import('./graphql').AdminSendTestEmailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AlertRules($projectId: ID!, $deliveries: Int!) {\n    alertRules(projectId: $projectId) {\n      id\n      kind\n      enabled\n      createdAt\n      secret\n      masked\n      threshold\n      windowMinutes\n      query\n      actionIntervalMinutes\n      digestMinutes\n      mutedUntil\n      filter {\n        environments\n        minLevel\n        tags {\n          key\n          value\n        }\n        release\n        assigned\n      }\n      channel {\n        type\n        url\n        email\n      }\n      deliveries(first: $deliveries) {\n        id\n        kind\n        status\n        attempts\n        lastError\n        lastStatus\n        createdAt\n        deliveredAt\n        nextAttemptAt\n        response\n        test\n      }\n      failing\n      recentFailures\n    }\n    alertChannels {\n      type\n      name\n      target\n      available\n      unavailableReason\n      help\n    }\n  }\n"): typeof import('./graphql').AlertRulesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateAlertRule(\n    $projectId: ID!\n    $kind: AlertKind!\n    $channel: AlertChannelInput!\n    $threshold: Int\n    $windowMinutes: Int\n    $query: String\n    $filter: AlertFilterInput\n    $actionIntervalMinutes: Int\n    $digestMinutes: Int\n  ) {\n    createAlertRule(\n      projectId: $projectId\n      kind: $kind\n      channel: $channel\n      threshold: $threshold\n      windowMinutes: $windowMinutes\n      query: $query\n      filter: $filter\n      actionIntervalMinutes: $actionIntervalMinutes\n      digestMinutes: $digestMinutes\n    ) {\n      id\n    }\n  }\n"): typeof import('./graphql').CreateAlertRuleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateAlertRuleSettings(\n    $id: ID!\n    $kind: AlertKind!\n    $threshold: Int\n    $windowMinutes: Int\n    $query: String\n    $filter: AlertFilterInput\n    $actionIntervalMinutes: Int\n    $digestMinutes: Int\n  ) {\n    updateAlertRule(\n      id: $id\n      kind: $kind\n      threshold: $threshold\n      windowMinutes: $windowMinutes\n      query: $query\n      filter: $filter\n      actionIntervalMinutes: $actionIntervalMinutes\n      digestMinutes: $digestMinutes\n    ) {\n      id\n    }\n  }\n"): typeof import('./graphql').UpdateAlertRuleSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MuteAlertRule($id: ID!, $until: String) {\n    muteAlertRule(id: $id, until: $until) {\n      id\n      mutedUntil\n    }\n  }\n"): typeof import('./graphql').MuteAlertRuleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateAlertRule($id: ID!, $enabled: Boolean) {\n    updateAlertRule(id: $id, enabled: $enabled) {\n      id\n    }\n  }\n"): typeof import('./graphql').UpdateAlertRuleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TestAlertRule($id: ID!) {\n    testAlertRule(id: $id) {\n      id\n      kind\n      status\n      attempts\n      lastError\n      lastStatus\n      response\n      test\n      createdAt\n      deliveredAt\n      nextAttemptAt\n    }\n  }\n"): typeof import('./graphql').TestAlertRuleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteAlertRule($id: ID!) {\n    deleteAlertRule(id: $id)\n  }\n"): typeof import('./graphql').DeleteAlertRuleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditOrganizations {\n    viewer {\n      id\n      organizations {\n        id\n        slug\n        name\n      }\n    }\n  }\n"): typeof import('./graphql').AuditOrganizationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditLog($organizationId: ID!, $first: Int!, $after: String, $filter: AuditLogFilter) {\n    auditLog(organizationId: $organizationId, first: $first, after: $after, filter: $filter) {\n      nodes {\n        id\n        action\n        time\n        actor {\n          type\n          label\n          userId\n          apiTokenId\n          apiTokenName\n          apiTokenPrefix\n        }\n        target {\n          type\n          id\n          label\n        }\n        changes\n        clientAddress\n        userAgent\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').AuditLogDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment StackFrameFields on Frame {\n    filename\n    function\n    lineno\n    colno\n    inApp\n    minified {\n      filename\n      function\n      lineno\n      colno\n    }\n    context {\n      pre\n      line\n      post\n    }\n    vars {\n      name\n      value\n    }\n  }\n"): typeof import('./graphql').StackFrameFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment EventDetailFields on Event {\n    id\n    eventId\n    message\n    logMessage\n    type\n    level\n    handled\n    environment\n    release\n    url\n    timestamp\n    user\n    tags {\n      key\n      value\n    }\n    context\n    sdk {\n      name\n      version\n    }\n    fingerprint\n    # The thrown error first (its frames are the event's), then its causes.\n    exceptions {\n      type\n      value\n      frames {\n        ...StackFrameFields\n      }\n    }\n    breadcrumbs {\n      timestamp\n      category\n      message\n      level\n      data\n    }\n    request {\n      method\n      url\n      queryString\n      headers {\n        name\n        value\n      }\n      data\n    }\n    componentStack\n    navigation {\n      oldest\n      older\n      newer\n      latest\n    }\n  }\n"): typeof import('./graphql').EventDetailFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EventJson($issueId: ID!, $eventId: ID!) {\n    issue(id: $issueId) {\n      id\n      projectId\n      event(id: $eventId) {\n        json\n      }\n    }\n  }\n"): typeof import('./graphql').EventJsonDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query IssueDetail(\n    $id: ID!\n    $eventsFirst: Int!\n    $eventsAfter: String\n    $range: SeriesRange!\n    $eventId: ID!\n    $picked: Boolean!\n    $activityFirst: Int!\n    $projectId: ID!\n  ) {\n    issue(id: $id) {\n      id\n      projectId\n      title\n      type\n      culprit\n      status\n      level\n      isRegression\n      eventCount\n      userCount\n      firstSeen\n      lastSeen\n      resolvedAt\n      snoozedUntil\n      snooze {\n        kind\n        until\n        minutes\n        forEvents\n        forUsers\n        remaining\n      }\n      discarded\n      discardedAt\n      mergedIssueCount\n      alertsMutedUntil\n      assignee {\n        id\n        email\n      }\n      activity(first: $activityFirst) {\n        id\n        kind\n        actor {\n          id\n          email\n        }\n        createdAt\n        message\n        comment {\n          id\n          body\n          createdAt\n          updatedAt\n          editable\n        }\n      }\n      resolvedInRelease {\n        version\n        environment\n        deployedAt\n      }\n      releases {\n        version\n        environment\n        firstSeen\n        lastSeen\n        eventCount\n      }\n      suspectCommits {\n        release\n        files\n        commit {\n          id\n          repository\n          authorName\n          authorEmail\n          message\n          timestamp\n        }\n      }\n      tags {\n        key\n        count\n        values {\n          value\n          count\n        }\n      }\n      series: eventSeries(range: $range) {\n        ts\n        count\n      }\n      events(first: $eventsFirst, after: $eventsAfter) {\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        nodes {\n          id\n          eventId\n          message\n          environment\n          release\n          timestamp\n          user\n        }\n      }\n      latestEvent @skip(if: $picked) {\n        ...EventDetailFields\n      }\n      # By its UUID within this issue: another issue's event answers null.\n      event(id: $eventId) @include(if: $picked) {\n        issueId\n        ...EventDetailFields\n      }\n      feedback {\n        id\n        message\n        email\n        name\n        url\n        receivedAt\n      }\n    }\n    # The assignee picker's choices: the members of the project's organization.\n    project(id: $projectId) {\n      id\n      traceUrlTemplate\n      members {\n        userId\n        email\n      }\n    }\n  }\n"): typeof import('./graphql').IssueDetailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResolveIssue($id: ID!) {\n    resolveIssue(id: $id) {\n      id\n    }\n  }\n"): typeof import('./graphql').ResolveIssueDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReopenIssue($id: ID!) {\n    reopenIssue(id: $id) {\n      id\n    }\n  }\n"): typeof import('./graphql').ReopenIssueDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SnoozeIssue($id: ID!, $until: String, $minutes: Int, $forEvents: Int, $forUsers: Int) {\n    snoozeIssue(id: $id, until: $until, minutes: $minutes, forEvents: $forEvents, forUsers: $forUsers) {\n      id\n    }\n  }\n"): typeof import('./graphql').SnoozeIssueDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UnmergeIssue($id: ID!) {\n    unmergeIssue(id: $id) {\n      id\n      title\n    }\n  }\n"): typeof import('./graphql').UnmergeIssueDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DiscardIssue($id: ID!, $discard: Boolean!) {\n    discardIssue(id: $id, discard: $discard) {\n      id\n      discarded\n    }\n  }\n"): typeof import('./graphql').DiscardIssueDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AssignIssue($id: ID!, $userId: ID) {\n    assignIssue(id: $id, userId: $userId) {\n      id\n    }\n  }\n"): typeof import('./graphql').AssignIssueDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddComment($issueId: ID!, $body: String!) {\n    addComment(issueId: $issueId, body: $body) {\n      id\n    }\n  }\n"): typeof import('./graphql').AddCommentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateComment($id: ID!, $body: String!) {\n    updateComment(id: $id, body: $body) {\n      id\n    }\n  }\n"): typeof import('./graphql').UpdateCommentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteComment($id: ID!) {\n    deleteComment(id: $id)\n  }\n"): typeof import('./graphql').DeleteCommentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectIssues(\n    $projectId: ID!\n    $status: IssueStatus\n    $discarded: Boolean\n    $first: Int!\n    $after: String\n    $search: String\n    $query: String\n    $environment: String\n    $release: String\n    $sort: IssueSort!\n    $assigned: IssueAssignedFilter\n  ) {\n    issues(\n      projectId: $projectId\n      status: $status\n      discarded: $discarded\n      first: $first\n      after: $after\n      search: $search\n      query: $query\n      environment: $environment\n      release: $release\n      sort: $sort\n      assigned: $assigned\n    ) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        title\n        culprit\n        level\n        status\n        isRegression\n        eventCount\n        userCount\n        lastSeen\n        assignee {\n          id\n          email\n        }\n        series(hours: 24) {\n          ts\n          count\n        }\n      }\n    }\n    all: issues(projectId: $projectId, first: 1) {\n      totalCount\n    }\n    allDiscarded: issues(projectId: $projectId, first: 1, discarded: true) {\n      totalCount\n    }\n    savedSearches(projectId: $projectId) {\n      id\n      name\n      query\n    }\n  }\n"): typeof import('./graphql').ProjectIssuesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateSavedSearch($projectId: ID!, $name: String!, $query: String!) {\n    createSavedSearch(projectId: $projectId, name: $name, query: $query) {\n      id\n    }\n  }\n"): typeof import('./graphql').CreateSavedSearchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteSavedSearch($id: ID!) {\n    deleteSavedSearch(id: $id)\n  }\n"): typeof import('./graphql').DeleteSavedSearchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResolveIssues($ids: [ID!]!) {\n    resolveIssues(ids: $ids) {\n      id\n    }\n  }\n"): typeof import('./graphql').ResolveIssuesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MergeIssues($sourceId: ID!, $targetId: ID!) {\n    mergeIssues(sourceId: $sourceId, targetId: $targetId) {\n      id\n      title\n    }\n  }\n"): typeof import('./graphql').MergeIssuesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OrganizationsOfViewer {\n    viewer {\n      id\n      twoFactorEnabled\n      organizations {\n        id\n        slug\n      }\n    }\n  }\n"): typeof import('./graphql').OrganizationsOfViewerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OrganizationSettings($id: ID!) {\n    organization(id: $id) {\n      id\n      name\n      slug\n      plan\n      requireTwoFactor\n      projects {\n        id\n        name\n      }\n      usage {\n        period\n        periodEnd\n        events {\n          used\n          limit\n          remaining\n        }\n        logs {\n          used\n          limit\n          remaining\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').OrganizationSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RenameOrganization($id: ID!, $name: String!) {\n    renameOrganization(id: $id, name: $name) {\n      id\n      name\n    }\n  }\n"): typeof import('./graphql').RenameOrganizationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetOrganizationRequireTwoFactor($id: ID!, $required: Boolean!) {\n    setOrganizationRequireTwoFactor(organizationId: $id, required: $required) {\n      id\n      requireTwoFactor\n    }\n  }\n"): typeof import('./graphql').SetOrganizationRequireTwoFactorDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ReleaseHealthFields on ReleaseHealth {\n    issuesIntroduced\n    regressions\n    basis\n    crashFreeSessions\n    sessions {\n      started\n    }\n    usersSeen\n    crashedUsers\n    crashFreeUsers\n    windowEvents\n    enoughData\n    eventsPerHour\n    previousVersion\n    previousIssuesIntroduced\n    previousRegressions\n    previousCrashFreeUsers\n    previousEventsPerHour\n    eventsPerHourRatio\n  }\n"): typeof import('./graphql').ReleaseHealthFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ReleaseIssueFields on ReleaseIssueList {\n    totalCount\n    nodes {\n      environments\n      at\n      issue {\n        id\n        title\n        culprit\n        level\n        status\n        isRegression\n        eventCount\n        userCount\n        lastSeen\n      }\n    }\n  }\n"): typeof import('./graphql').ReleaseIssueFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ReleaseDetail($projectId: ID!, $version: String!, $issues: Int!, $files: Int!) {\n    project(id: $projectId) {\n      id\n      organizationId\n    }\n    viewer {\n      id\n      organizations {\n        id\n        plan\n      }\n    }\n    plans {\n      ...PlanFields\n    }\n    release(projectId: $projectId, version: $version) {\n      version\n      dateCreated\n      dateReleased\n      deploys {\n        id\n        environment\n        deployedAt\n      }\n      newIssues(first: $issues) {\n        ...ReleaseIssueFields\n      }\n      regressedIssues(first: $issues) {\n        ...ReleaseIssueFields\n      }\n      resolvedIssues(first: $issues) {\n        ...ReleaseIssueFields\n      }\n      sourceMaps(first: $files) {\n        totalCount\n        totalBytes\n        nodes {\n          filename\n          sizeBytes\n          uploadedAt\n        }\n      }\n      artifactBundles(first: 25) {\n        checksum\n        dist\n        fileCount\n        assembledAt\n      }\n      commits(first: 100) {\n        id\n        repository\n        authorName\n        authorEmail\n        message\n        timestamp\n      }\n    }\n  }\n"): typeof import('./graphql').ReleaseDetailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ReleaseDetailHealth($projectId: ID!, $version: String!) {\n    release(projectId: $projectId, version: $version) {\n      deploys {\n        id\n        health {\n          ...ReleaseHealthFields\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').ReleaseDetailHealthDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ReleaseVersionFields on Release {\n    dateReleased\n    commits {\n      id\n      repository\n      authorName\n      authorEmail\n      message\n      timestamp\n    }\n  }\n"): typeof import('./graphql').ReleaseVersionFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UnregisteredReleases($projectId: ID!) {\n    unregisteredReleases(projectId: $projectId, first: 50) {\n      version\n      environments\n      firstSeen\n      lastSeen\n      eventCount\n    }\n  }\n"): typeof import('./graphql').UnregisteredReleasesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectInboundFilters($projectId: ID!) {\n    projectInboundFilters(projectId: $projectId) {\n      projectId\n      browserExtensions\n      localhost\n      legacyBrowsers\n      legacyBrowserMinVersions {\n        browser\n        minVersion\n      }\n      webCrawlers\n      errorMessages\n      releases\n      dropped {\n        filter\n        dropped\n      }\n    }\n  }\n"): typeof import('./graphql').ProjectInboundFiltersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateProjectInboundFilters(\n    $projectId: ID!\n    $input: ProjectInboundFiltersInput!\n    $confirmDropAll: Boolean!\n  ) {\n    updateProjectInboundFilters(projectId: $projectId, input: $input, confirmDropAll: $confirmDropAll) {\n      projectId\n    }\n  }\n"): typeof import('./graphql').UpdateProjectInboundFiltersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectPrivacy($projectId: ID!) {\n    project(id: $projectId) {\n      id\n      privacy {\n        scrubDefaults\n        sensitiveFields\n        scrubIpAddresses\n      }\n    }\n    previewScrubbing(projectId: $projectId) {\n      sample\n      event\n    }\n  }\n"): typeof import('./graphql').ProjectPrivacyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PreviewScrubbing($projectId: ID!, $sample: String, $draft: ProjectPrivacyInput) {\n    previewScrubbing(projectId: $projectId, sample: $sample, draft: $draft) {\n      sample\n      event\n    }\n  }\n"): typeof import('./graphql').PreviewScrubbingDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateProjectPrivacy($id: ID!, $input: ProjectPrivacyInput!) {\n    updateProjectPrivacy(id: $id, input: $input) {\n      id\n      privacy {\n        scrubDefaults\n        sensitiveFields\n        scrubIpAddresses\n      }\n    }\n  }\n"): typeof import('./graphql').UpdateProjectPrivacyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectOrganization($id: ID!) {\n    project(id: $id) {\n      id\n      organizationId\n      dsn\n      traceUrlTemplate\n    }\n  }\n"): typeof import('./graphql').ProjectOrganizationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectKeys($projectId: ID!) {\n    projectKeys(projectId: $projectId) {\n      id\n      publicKey\n      enabled\n      rateLimitPerSecond\n      createdAt\n      disabledAt\n    }\n  }\n"): typeof import('./graphql').ProjectKeysDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UploadTokens($projectId: ID!) {\n    uploadTokens(projectId: $projectId) {\n      id\n      name\n      prefix\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n"): typeof import('./graphql').UploadTokensDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Members($organizationId: ID!) {\n    members(organizationId: $organizationId) {\n      userId\n      email\n      role\n      joinedAt\n      emailVerified\n      twoFactorEnabled\n    }\n  }\n"): typeof import('./graphql').MembersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Invitations($organizationId: ID!) {\n    invitations(organizationId: $organizationId) {\n      id\n      email\n      role\n      createdAt\n      expiresAt\n    }\n  }\n"): typeof import('./graphql').InvitationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ApiTokens {\n    apiTokens {\n      id\n      name\n      scopes\n      prefix\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n"): typeof import('./graphql').ApiTokensDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RotateProjectKey($projectId: ID!, $keepOldKeys: Boolean!) {\n      rotateProjectKey(projectId: $projectId, keepOldKeys: $keepOldKeys) {\n        id\n      }\n    }\n  "): typeof import('./graphql').RotateProjectKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation DisableProjectKey($projectId: ID!, $keyId: ID!) {\n      disableProjectKey(projectId: $projectId, keyId: $keyId) {\n        id\n      }\n    }\n  "): typeof import('./graphql').DisableProjectKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation UpdateProjectKeyRateLimit($projectId: ID!, $keyId: ID!, $rateLimitPerSecond: Int) {\n      updateProjectKey(projectId: $projectId, keyId: $keyId, rateLimitPerSecond: $rateLimitPerSecond) {\n        id\n        rateLimitPerSecond\n      }\n    }\n  "): typeof import('./graphql').UpdateProjectKeyRateLimitDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation CreateUploadToken($projectId: ID!, $name: String!) {\n      createUploadToken(projectId: $projectId, name: $name) {\n        token\n        uploadToken {\n          name\n        }\n      }\n    }\n  "): typeof import('./graphql').CreateUploadTokenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RevokeUploadToken($projectId: ID!, $id: ID!) {\n      revokeUploadToken(projectId: $projectId, id: $id) {\n        id\n      }\n    }\n  "): typeof import('./graphql').RevokeUploadTokenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation InviteMember($organizationId: ID!, $email: String!, $role: MemberRole!) {\n      inviteMember(organizationId: $organizationId, email: $email, role: $role) {\n        emailSent\n        link\n        invitation {\n          email\n        }\n      }\n    }\n  "): typeof import('./graphql').InviteMemberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RevokeInvitation($id: ID!) {\n      revokeInvitation(id: $id) {\n        id\n      }\n    }\n  "): typeof import('./graphql').RevokeInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RemoveMember($organizationId: ID!, $userId: ID!) {\n      removeMember(organizationId: $organizationId, userId: $userId)\n    }\n  "): typeof import('./graphql').RemoveMemberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation CreateApiToken($name: String!, $scopes: [ApiScope!]!) {\n      createApiToken(name: $name, scopes: $scopes) {\n        token\n        apiToken {\n          name\n        }\n      }\n    }\n  "): typeof import('./graphql').CreateApiTokenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation UpdateProjectTraceLink($id: ID!, $template: String) {\n      updateProjectTraceLink(id: $id, template: $template) {\n        id\n        traceUrlTemplate\n      }\n    }\n  "): typeof import('./graphql').UpdateProjectTraceLinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RevokeApiToken($id: ID!) {\n      revokeApiToken(id: $id) {\n        id\n      }\n    }\n  "): typeof import('./graphql').RevokeApiTokenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SsoPage {\n    viewer {\n      id\n      organizations {\n        id\n        slug\n        name\n      }\n    }\n  }\n"): typeof import('./graphql').SsoPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SsoSettings($organizationId: ID!) {\n    ssoSettings(organizationId: $organizationId) {\n      issuer\n      clientId\n      clientSecretHint\n      emailDomains\n      defaultRole\n      requireSso\n      callbackUrl\n      updatedAt\n    }\n  }\n"): typeof import('./graphql').SsoSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SaveSsoSettings($organizationId: ID!, $input: SsoSettingsInput!) {\n    saveSsoSettings(organizationId: $organizationId, input: $input) {\n      issuer\n    }\n  }\n"): typeof import('./graphql').SaveSsoSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteSsoSettings($organizationId: ID!) {\n    deleteSsoSettings(organizationId: $organizationId)\n  }\n"): typeof import('./graphql').DeleteSsoSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TwoFactorStatus {\n    twoFactor {\n      enabled\n      enabledAt\n      recoveryCodesLeft\n    }\n    viewer {\n      email\n      twoFactorEnrolmentRequired\n    }\n  }\n"): typeof import('./graphql').TwoFactorStatusDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StartTwoFactorEnrolment {\n    startTwoFactorEnrolment {\n      secret\n      qrCodeDataUrl\n    }\n  }\n"): typeof import('./graphql').StartTwoFactorEnrolmentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConfirmTwoFactor($code: String!) {\n    confirmTwoFactor(code: $code)\n  }\n"): typeof import('./graphql').ConfirmTwoFactorDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DisableTwoFactor($code: String!) {\n    disableTwoFactor(code: $code)\n  }\n"): typeof import('./graphql').DisableTwoFactorDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegenerateRecoveryCodes($code: String!) {\n    regenerateRecoveryCodes(code: $code)\n  }\n"): typeof import('./graphql').RegenerateRecoveryCodesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment PlanFields on PlanInfo {\n    id\n    name\n    eventsPerMonth\n    logsPerMonth\n    retentionDays\n    releaseHealth\n  }\n"): typeof import('./graphql').PlanFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AdminViewer {\n    viewer {\n      id\n      isInstanceAdmin\n    }\n  }\n"): typeof import('./graphql').AdminViewerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectSetup($projectId: ID!) {\n    project(id: $projectId) {\n      id\n      organizationId\n    }\n    viewer {\n      id\n      organizations {\n        id\n        plan\n      }\n    }\n    plans {\n      id\n      name\n      releaseHealth\n    }\n    issues(projectId: $projectId, first: 1) {\n      totalCount\n    }\n  }\n"): typeof import('./graphql').ProjectSetupDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AlertMutePage($projectId: ID!, $issueId: ID!, $withIssue: Boolean!) {\n    alertRules(projectId: $projectId) {\n      id\n      kind\n      mutedUntil\n      channel {\n        type\n      }\n    }\n    issue(id: $issueId) @include(if: $withIssue) {\n      id\n      projectId\n      title\n      alertsMutedUntil\n    }\n  }\n"): typeof import('./graphql').AlertMutePageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MuteAlertRuleFromLink($id: ID!, $until: String) {\n    muteAlertRule(id: $id, until: $until) {\n      id\n    }\n  }\n"): typeof import('./graphql').MuteAlertRuleFromLinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MuteIssueAlerts($issueId: ID!, $until: String) {\n    muteIssueAlerts(issueId: $issueId, until: $until) {\n      id\n    }\n  }\n"): typeof import('./graphql').MuteIssueAlertsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Billing($projectId: ID!) {\n    project(id: $projectId) {\n      organizationId\n    }\n  }\n"): typeof import('./graphql').BillingDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BillingDetails($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      name\n      slug\n      usage {\n        period\n        periodEnd\n        events {\n          used\n          limit\n          remaining\n        }\n        logs {\n          used\n          limit\n          remaining\n        }\n      }\n    }\n    billing(organizationId: $organizationId) {\n      configured\n      plan\n      availablePlans\n      status\n      currentPeriodEnd\n      cancelAtPeriodEnd\n      pastDueSince\n      graceEndsAt\n      hasBillingAccount\n    }\n    plans {\n      ...PlanFields\n    }\n  }\n"): typeof import('./graphql').BillingDetailsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateCheckoutSession($organizationId: ID!, $plan: String!) {\n    createCheckoutSession(organizationId: $organizationId, plan: $plan) {\n      url\n    }\n  }\n"): typeof import('./graphql').CreateCheckoutSessionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateBillingPortalSession($organizationId: ID!) {\n    createBillingPortalSession(organizationId: $organizationId) {\n      url\n    }\n  }\n"): typeof import('./graphql').CreateBillingPortalSessionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectFeedback($projectId: ID!, $first: Int!, $after: String) {\n    feedback(projectId: $projectId, first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        message\n        email\n        name\n        url\n        eventId\n        receivedAt\n        issue {\n          id\n          title\n        }\n        event {\n          eventId\n          release\n          environment\n          url\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').ProjectFeedbackDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectLogs($projectId: ID!, $filter: LogFilter!, $first: Int!, $after: String) {\n    logs(projectId: $projectId, filter: $filter, first: $first, after: $after) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        level\n        message\n        context\n        tags\n        environment\n        release\n        timestamp\n      }\n    }\n  }\n"): typeof import('./graphql').ProjectLogsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectMonitors($projectId: ID!) {\n    monitors(projectId: $projectId) {\n      id\n      slug\n      name\n      kind\n      crontab\n      timezone\n      intervalMinutes\n      url\n      paused\n      status\n      checkinMarginMinutes\n      maxRuntimeMinutes\n      failureTolerance\n      recoveryThreshold\n      timeoutSeconds\n      environments {\n        environment\n        status\n        expectedAt\n      }\n      checkIns(first: 90) {\n        id\n        status\n        durationMs\n        statusCode\n        error\n        tlsExpiresAt\n        createdAt\n      }\n    }\n  }\n"): typeof import('./graphql').ProjectMonitorsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateMonitorFromPage($projectId: ID!, $kind: MonitorKind!, $input: MonitorInput!) {\n    createMonitor(projectId: $projectId, kind: $kind, input: $input) {\n      id\n    }\n  }\n"): typeof import('./graphql').CreateMonitorFromPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateMonitorFromPage($id: ID!, $input: MonitorInput!) {\n    updateMonitor(id: $id, input: $input) {\n      id\n    }\n  }\n"): typeof import('./graphql').UpdateMonitorFromPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PauseMonitorFromPage($id: ID!, $paused: Boolean!) {\n    pauseMonitor(id: $id, paused: $paused) {\n      id\n    }\n  }\n"): typeof import('./graphql').PauseMonitorFromPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteMonitorFromPage($id: ID!) {\n    deleteMonitor(id: $id)\n  }\n"): typeof import('./graphql').DeleteMonitorFromPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectVitals($projectId: ID!, $filter: VitalsFilter!, $interval: VitalsInterval!, $first: Int!) {\n    vitals(projectId: $projectId, filter: $filter) {\n      from\n      to\n      pageViews\n      metrics {\n        metric\n        count\n        p75\n        goodShare\n        needsImprovementShare\n        poorShare\n        thresholds {\n          good\n          poor\n        }\n      }\n    }\n    vitalsByUrl(projectId: $projectId, filter: $filter, first: $first) {\n      url\n      pageViews\n      metrics {\n        metric\n        p75\n      }\n    }\n    vitalsTimeSeries(projectId: $projectId, filter: $filter, interval: $interval) {\n      interval\n      buckets {\n        start\n        pageViews\n        lcp\n        inp\n        cls\n        fcp\n        ttfb\n      }\n    }\n    releases(projectId: $projectId, first: 100) {\n      version\n      environment\n    }\n  }\n"): typeof import('./graphql').ProjectVitalsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectReleases($projectId: ID!, $first: Int!) {\n    project(id: $projectId) {\n      id\n      organizationId\n    }\n    viewer {\n      id\n      organizations {\n        id\n        slug\n        name\n        plan\n      }\n    }\n    plans {\n      ...PlanFields\n    }\n    releases(projectId: $projectId, first: $first) {\n      id\n      version\n      environment\n      deployedAt\n      ...ReleaseVersionFields\n    }\n  }\n"): typeof import('./graphql').ProjectReleasesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectReleaseHealth($projectId: ID!, $first: Int!) {\n    releases(projectId: $projectId, first: $first) {\n      id\n      version\n      environment\n      deployedAt\n      ...ReleaseVersionFields\n      health {\n        ...ReleaseHealthFields\n      }\n    }\n  }\n"): typeof import('./graphql').ProjectReleaseHealthDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MarkRelease($projectId: ID!, $version: String!, $environment: String) {\n    markRelease(projectId: $projectId, version: $version, environment: $environment) {\n      id\n      version\n      environment\n      deployedAt\n    }\n  }\n"): typeof import('./graphql').MarkReleaseDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Project($id: ID!) {\n    project(id: $id) {\n      id\n      name\n      dsn\n      organizationId\n    }\n  }\n"): typeof import('./graphql').ProjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateProject($organizationId: ID!, $name: String!) {\n    createProject(organizationId: $organizationId, name: $name) {\n      id\n    }\n  }\n"): typeof import('./graphql').CreateProjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Viewer {\n    viewer {\n      id\n      email\n      isInstanceAdmin\n      twoFactorEnrolmentRequired\n      organizations {\n        id\n        slug\n        name\n        plan\n        projects {\n          id\n          name\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').ViewerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FirstProject {\n    viewer {\n      id\n      organizations {\n        id\n        projects {\n          id\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').FirstProjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RequestPasswordReset($email: String!) {\n    requestPasswordReset(email: $email) {\n      emailConfigured\n    }\n  }\n"): typeof import('./graphql').RequestPasswordResetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InvitationPreview($token: String!) {\n    invitation(token: $token) {\n      organizationName\n      email\n      role\n      status\n      expiresAt\n    }\n  }\n"): typeof import('./graphql').InvitationPreviewDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AcceptInvitation($token: String!) {\n    acceptInvitation(token: $token) {\n      id\n      projects {\n        id\n      }\n    }\n  }\n"): typeof import('./graphql').AcceptInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignupWithInvitation($token: String!, $password: String!) {\n    signupWithInvitation(token: $token, password: $password) {\n      token\n    }\n  }\n"): typeof import('./graphql').SignupWithInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      session {\n        token\n      }\n      twoFactorChallenge\n      twoFactorEnrolmentRequired\n    }\n  }\n"): typeof import('./graphql').SignInDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignInWithTwoFactor($challenge: String!, $code: String!) {\n    signInWithTwoFactor(challenge: $challenge, code: $code) {\n      token\n      user {\n        twoFactorEnabled\n      }\n    }\n  }\n"): typeof import('./graphql').SignInWithTwoFactorDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StartSsoLogin($email: String!) {\n    startSsoLogin(email: $email) {\n      authorizationUrl\n      state\n    }\n  }\n"): typeof import('./graphql').StartSsoLoginDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Logout {\n    logout\n  }\n"): typeof import('./graphql').LogoutDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OrgProjects {\n    viewer {\n      id\n      organizations {\n        slug\n        projects {\n          id\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').OrgProjectsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PasswordReset($token: String!) {\n    passwordReset(token: $token) {\n      email\n    }\n  }\n"): typeof import('./graphql').PasswordResetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResetPassword($token: String!, $newPassword: String!) {\n    resetPassword(token: $token, newPassword: $newPassword)\n  }\n"): typeof import('./graphql').ResetPasswordDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Signup($email: String!, $password: String!, $organizationName: String!) {\n    signup(email: $email, password: $password, organizationName: $organizationName) {\n      token\n      checkEmail\n    }\n  }\n"): typeof import('./graphql').SignupDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CompleteSsoLogin($parameters: String!) {\n    completeSsoLogin(parameters: $parameters) {\n      token\n    }\n  }\n"): typeof import('./graphql').CompleteSsoLoginDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConfirmEmailAddress($token: String!) {\n    confirmEmailAddress(token: $token) {\n      email\n      organizationSlug\n    }\n  }\n"): typeof import('./graphql').ConfirmEmailAddressDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
