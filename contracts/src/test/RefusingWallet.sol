// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title RefusingWallet
/// @notice Test only: code an account can delegate to by EIP-7702 whose ERC-1271 check refuses every
/// signature. Once an EOA points at it, contracts that verify through OpenZeppelin's SignatureChecker ask
/// the account's code rather than its key, so they refuse what the key signed (a resolver's bid, a taker's
/// Permit2 order) although the signature itself is good. Holds no value.
contract RefusingWallet {
    /// @dev Anything but ERC-1271's magic value 0x1626ba7e is a refusal.
    function isValidSignature(bytes32, bytes calldata) external pure returns (bytes4) {
        return 0xffffffff;
    }
}
