# Homebrew formula for git-convo. scripts/release.sh writes a copy with the
# release's url, version and sha256 into dist/; docs/release.md says how to
# install and test it.
class GitConvo < Formula
  desc "Link git commits to the AI agent conversations that produced them"
  homepage "https://github.com/git-convo/git-convo"
  url "https://github.com/git-convo/git-convo/releases/download/v0.1.0/git-convo-0.1.0.tar.gz"
  version "0.1.0"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "MIT"
  head "https://github.com/git-convo/git-convo.git", branch: "main"

  # SQLite is compiled in through cgo with the system C compiler.
  depends_on "go" => :build

  def install
    ENV["CGO_ENABLED"] = "1"
    ldflags = "-s -w -X github.com/git-convo/git-convo/pkg/cli.Version=#{version} -X main.version=#{version}"
    # urfave_cli_no_docs leaves out a Markdown renderer every hook would initialise.
    system "go", "build", *std_go_args(ldflags: ldflags, output: bin/"git-convo", tags: "urfave_cli_no_docs"),
           "./cmd/git-convo"
    system "go", "build", *std_go_args(ldflags: ldflags, output: bin/"git-convo-mcp"), "./cmd/git-convo-mcp"
    (man1/"git-convo.1").write Utils.safe_popen_read(bin/"git-convo", "man")
    generate_completions_from_executable(bin/"git-convo", "completion", shells: [:bash, :zsh])
  end

  test do
    ENV.prepend_path "PATH", bin
    ENV["GIT_CONVO_DB"] = (testpath/"links.sqlite").to_s
    ENV["GIT_CONVO_SYNC"] = "1"
    assert_match version.to_s, shell_output("git convo --version")
    assert_match "links-db schema", shell_output("git convo version")

    system "git", "init", "--quiet", "repo"
    cd "repo" do
      system "git", "config", "user.name", "Brew Test"
      system "git", "config", "user.email", "brew@example.com"
      system "git", "convo", "install", "--cursor=none"
      assert_match "git-convo", (testpath/"repo/.git/hooks/post-commit").read
      (testpath/"repo/README").write "hello\n"
      system "git", "add", "README"
      system "git", "commit", "--quiet", "-m", "first commit"
      assert_match "first commit", shell_output("git convo show HEAD")
    end
    assert_path_exists testpath/"links.sqlite"
  end
end
