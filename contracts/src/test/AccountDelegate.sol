// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title AccountDelegate
/// @notice Test only: code an EOA delegates its account to by EIP-7702, in the manner of smart accounts
/// that do so. Running as the account (`address(this)` is the EOA), it answers ERC-1271 for the account's
/// own key, but over a replay-safe wrapping of the hash (EIP-712 `AccountMessage(bytes32 hash)` under the
/// account's domain), so a signature made for one account is not another's. Permit2 asks this code, not
/// the key, once the account is delegated: an ECDSA signature over the hash itself is refused.
contract AccountDelegate {
    bytes4 private constant MAGIC_VALUE = 0x1626ba7e;
    bytes32 private constant DOMAIN_TYPEHASH = keccak256("EIP712Domain(uint256 chainId,address verifyingContract)");
    bytes32 private constant ACCOUNT_MESSAGE_TYPEHASH = keccak256("AccountMessage(bytes32 hash)");

    /// @notice What the account's key signs for `hash`.
    function messageHash(bytes32 hash) public view returns (bytes32) {
        bytes32 domain = keccak256(abi.encode(DOMAIN_TYPEHASH, block.chainid, address(this)));
        bytes32 structHash = keccak256(abi.encode(ACCOUNT_MESSAGE_TYPEHASH, hash));
        return keccak256(abi.encodePacked("\x19\x01", domain, structHash));
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(messageHash(hash), signature);
        return err == ECDSA.RecoverError.NoError && signer == address(this) ? MAGIC_VALUE : bytes4(0xffffffff);
    }
}
