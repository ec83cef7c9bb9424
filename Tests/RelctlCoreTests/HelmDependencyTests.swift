import Foundation
import Testing

@testable import RelctlDistribution

/// Chart.lock's digest as Helm computes it, and the YAML Helm's files are written in.
@Suite(.timeLimit(.minutes(30))) struct HelmDependencyTests {
    /// argo-helm's argo-cd 5.1.0 (commit fde05652 of argoproj/argo-helm): its Chart.yaml and the
    /// Chart.lock `helm dependency update` wrote for it, digest and all.
    static let argoCDChart = """
        apiVersion: v2
        appVersion: v2.4.11
        description: A Helm chart for Argo CD, a declarative, GitOps continuous delivery tool for Kubernetes.
        name: argo-cd
        version: 5.1.0
        home: https://github.com/argoproj/argo-helm
        icon: https://argo-cd.readthedocs.io/en/stable/assets/logo.png
        keywords:
          - argoproj
          - argocd
          - gitops
        maintainers:
          - name: alexec
          - name: alexmt
          - name: jessesuen
          - name: seanson
        dependencies:
          - name: redis-ha
            version: 4.17.1
            repository: https://dandydeveloper.github.io/charts/
            condition: redis-ha.enabled
        annotations:
          artifacthub.io/changes: |
            - "[Changed]: manage CRD by Helm"
            - "[Added]: support CRD enable flag"
            - "[Fixed]: fix doc of how to upgrade CRD"

        """
    static let argoCDLock = """
        dependencies:
        - name: redis-ha
          repository: https://dandydeveloper.github.io/charts/
          version: 4.17.1
        digest: sha256:eecc8c4bee9af2f12aa6c7e6d0d76c87a8c0b06aa3f2af8405578c4725a5f501
        generated: "2022-06-29T14:57:19.381444853+02:00"

        """

    @Test func argoCDsLockDigestIsWhatHelmWrote() throws {
        let read = try HelmDependencies.read(chartText: Self.argoCDChart, lockText: Self.argoCDLock, shown: "argo-cd")
        #expect(read.declared.map(\.name) == ["redis-ha"])
        #expect(read.declared.first?.condition == "redis-ha.enabled")
        let lock = try #require(read.lock)
        #expect(
            HelmDependencies.digest(declared: read.declared, locked: lock.dependencies)
                == "sha256:eecc8c4bee9af2f12aa6c7e6d0d76c87a8c0b06aa3f2af8405578c4725a5f501")
        // Any change to what Chart.yaml declares changes the digest.
        var changed = read.declared
        changed[0].condition = ""
        #expect(HelmDependencies.digest(declared: changed, locked: lock.dependencies) != lock.digest)
    }

    @Test func goStringsAreEscapedAsEncodingJSONEscapesThem() {
        #expect(HelmDependencies.goString("a<b>&\"\\\n\u{1}\u{2028}é") == #""a\u003cb\u003e\u0026\"\\\n\u0001\u2028é""#)
    }

    @Test func yamlOfHelmsFilesIsRead() throws {
        let index = try HelmYAML.parse(
            """
            apiVersion: v1
            entries:
              redis-ha:
              - apiVersion: v2
                description: A long description that the writer folded
                  onto a second line
                digest: "abc" # quoted
                urls:
                - redis-ha-4.17.1.tgz
                keywords: [redis, 'ha']
                version: 4.17.1
              empty: []
            generated: '2022-06-29T14:57:19+02:00'
            """)
        let entry = try #require(index["entries"]?["redis-ha"]?.items?.first)
        #expect(entry["description"]?.text == "A long description that the writer folded onto a second line")
        #expect(entry["digest"]?.text == "abc")
        #expect(entry["urls"]?.items == [.scalar("redis-ha-4.17.1.tgz")])
        #expect(entry["keywords"]?.items == [.scalar("redis"), .scalar("ha")])
        #expect(index["entries"]?["empty"]?.items == [])
        #expect(index["generated"]?.text == "2022-06-29T14:57:19+02:00")
        #expect(throws: HelmYAML.Failure.self) { try HelmYAML.parse("a: &anchor 1\n") }
        #expect(throws: HelmYAML.Failure.self) { try HelmYAML.parse("a: 1\na: 2\n") }
    }

    @Test func onlyAnExactVersionIsFetchedWithoutALock() {
        #expect(HelmDependencyFetcher.isExact("4.17.1") && HelmDependencyFetcher.isExact("v1.2.3-rc.1"))
        #expect(
            !HelmDependencyFetcher.isExact("~4.17.0") && !HelmDependencyFetcher.isExact(">=1.0.0")
                && !HelmDependencyFetcher.isExact("4.x"))
    }
}
